//! IR dump: the `isa-codegen ir` output, YAML or JSON, byte-identical across
//! runs (the IR holds only `Vec`s, in declaration order).

use isa_dsl::ir::Isa;

/// Output format of [`dump`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// YAML with the JSON's structure: an enum variant with data is a map of
    /// one key (`value: {constant: 0}`), not a YAML tag (`!constant 0`, which
    /// plain YAML loaders refuse), and keys in declaration order.
    Yaml,
    /// Pretty-printed JSON.
    Json,
}

/// Serialises the IR.
pub fn dump(isa: &Isa, format: Format) -> Result<String, String> {
    match format {
        Format::Yaml => {
            let value = serde_yaml::to_value(isa).map_err(|e| e.to_string())?;
            serde_yaml::to_string(&untag(value)).map_err(|e| e.to_string())
        }
        Format::Json => serde_json::to_string_pretty(isa).map(|s| s + "\n").map_err(|e| e.to_string()),
    }
}

/// `value` with every YAML tag (serde_yaml's spelling of an enum variant
/// with data, `!constant 0`) turned into a map of one key, as JSON spells it
/// (`{constant: 0}`).
fn untag(value: serde_yaml::Value) -> serde_yaml::Value {
    use serde_yaml::Value;
    match value {
        Value::Tagged(t) => {
            let tag = t.tag.to_string();
            let mut map = serde_yaml::Mapping::new();
            map.insert(Value::String(tag.trim_start_matches('!').to_string()), untag(t.value));
            Value::Mapping(map)
        }
        Value::Sequence(items) => Value::Sequence(items.into_iter().map(untag).collect()),
        Value::Mapping(map) => Value::Mapping(map.into_iter().map(|(k, v)| (untag(k), untag(v))).collect()),
        other => other,
    }
}
