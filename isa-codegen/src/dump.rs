//! IR dump: the `isa-codegen ir` output, YAML or JSON, byte-identical across
//! runs (the IR holds only `Vec`s, in declaration order).

use isa_dsl::ir::Isa;

/// Output format of [`dump`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YAML, as serde_yaml writes it.
    Yaml,
    /// Pretty-printed JSON.
    Json,
}

/// Serialises the IR.
pub fn dump(isa: &Isa, format: Format) -> Result<String, String> {
    match format {
        Format::Yaml => serde_yaml::to_string(isa).map_err(|e| e.to_string()),
        Format::Json => serde_json::to_string_pretty(isa).map(|s| s + "\n").map_err(|e| e.to_string()),
    }
}
