//! One code path: what the `isa!` macro expands to (`isa_codegen::expand`)
//! equals what `isa-codegen spec/ -o generated/` wrote, modulo the file header
//! and the layout (files vs inline modules), and the crate documentation's
//! usage example, which only the files carry.

use quote::quote;
use std::path::Path;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn parse(file: &str) -> syn::File {
    let text = std::fs::read_to_string(root().join("generated/src").join(file)).unwrap();
    syn::parse_file(&text).unwrap()
}

#[test]
fn macro_expansion_equals_generated_files() {
    let fe = isa_dsl::load(&[root().join("spec")]);
    let expansion = isa_codegen::expand(&fe).expect("the spec has no errors");

    // Rebuild the same shape from the files on disk: lib.rs with its
    // `pub mod x;` declarations replaced by the modules' contents.
    let lib = parse("lib.rs");
    // The files' crate documentation ends with a usage example (a doctest
    // naming the crate) that the expansion, an inline module, leaves out.
    let doc_text = |a: &syn::Attribute| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    };
    let mut attrs: Vec<&syn::Attribute> = Vec::new();
    let mut in_example = false;
    for a in &lib.attrs {
        match doc_text(a) {
            Some(t) if t.trim() == "# Example" => {
                in_example = true;
                if attrs.last().and_then(|l| doc_text(l)).is_some_and(|l| l.trim().is_empty()) {
                    attrs.pop();
                }
            }
            Some(_) if in_example => {}
            _ => attrs.push(a),
        }
    }
    assert!(in_example, "the crate documentation has its example");
    let mut items = Vec::new();
    let mut mods = Vec::new();
    for item in &lib.items {
        match item {
            syn::Item::Mod(m) if m.content.is_none() => {
                let name = &m.ident;
                let f = parse(&format!("{name}.rs"));
                let (a, i) = (&f.attrs, &f.items);
                mods.push(quote! { pub mod #name { #(#a)* #(#i)* } });
            }
            other => items.push(other),
        }
    }
    assert_eq!(mods.len(), 4, "lib.rs declares types, opcodes, text and sim");
    let from_files = quote! { #(#attrs)* #(#items)* #(#mods)* };

    let pretty = |ts: proc_macro2::TokenStream| prettyplease::unparse(&syn::parse2::<syn::File>(ts).unwrap());
    let (a, b) = (pretty(expansion), pretty(from_files));
    assert!(a == b, "expansion and generated files differ (lengths {} vs {})", a.len(), b.len());
}
