//! Rebuilds the crate when a file is added to the spec: `isa!` tracks the
//! files its globs matched (an edit or a deletion rebuilds), but a new file
//! the glob would match is only seen when the crate is rebuilt. Cargo scans
//! a directory given here for any change.

fn main() {
    println!("cargo:rerun-if-changed=../../spec");
}
