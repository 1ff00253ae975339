fn main() {
    let paths: Vec<std::path::PathBuf> = std::env::args().skip(1).map(Into::into).collect();
    let fe = isa_dsl::load(&paths);
    print!("{}", fe.render_diagnostics());
    println!("{} optypes, {} opcodes; {}", fe.isa.optypes.len(), fe.isa.opcodes.len(), fe.diagnostics.summary());
}
