//! The command-line tools' file plumbing, shared by `isa-codegen asm/disasm`
//! and `isa`: `-` for standard input and output (and how messages name
//! them), output written all or nothing (and the temporary files of killed
//! runs removed), standard output that a closed pipe (`| head`) does not
//! fail, the check that an output would not replace its own input
//! (standard input redirected from it too), and the exit code after
//! printing the argument parser's help or error.

use std::path::Path;

/// Writes `bytes` to `path` all or nothing: into a temporary file beside
/// it, then renamed over it, so a failed write leaves the old file as it
/// was. A symbolic link is followed (the file it names is replaced, the link
/// stays); a path that exists and is not a regular file (a device, a pipe)
/// is written to directly, as it cannot be replaced.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match std::fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => return std::fs::write(path, bytes),
        // A link to an existing file: replace that file.
        Ok(_) => std::fs::canonicalize(path)?,
        Err(_) => path.to_path_buf(),
    };
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    let tmp = target.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    remove_dead_temps(&target, &name);
    // The file replaced keeps its permissions (an executable bit, say).
    let keep = |()| match std::fs::metadata(&target) {
        Ok(m) => std::fs::set_permissions(&tmp, m.permissions()),
        Err(_) => Ok(()),
    };
    // The temporary file's failure names it: "No such file" for a file
    // that exists (`/proc/version`) would mislead.
    let made = std::fs::write(&tmp, bytes).map_err(|e| match tmp.parent().filter(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
        Some(d) => std::io::Error::new(e.kind(), format!("its directory {} does not exist", d.display())),
        None => std::io::Error::new(e.kind(), format!("cannot create the temporary file {} beside it: {e}", tmp.display())),
    });
    made.and_then(keep).and_then(|()| std::fs::rename(&tmp, &target)).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// Removes the temporary files that runs killed before their rename left
/// beside `target` (`.NAME.tmp-PID`, `name` its file name): those whose
/// process is gone and that nothing has written for ten minutes (a PID
/// from another PID namespace, a container's, is not seen in `/proc`; a
/// live run writes its file within moments). Only where processes can be
/// seen (`/proc`).
fn remove_dead_temps(target: &Path, name: &str) {
    const STALE: std::time::Duration = std::time::Duration::from_secs(600);
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{name}.tmp-");
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| temp_pid(n, &prefix)) else { continue };
        let old = e.metadata().ok().filter(|m| m.is_file()).and_then(|m| m.modified().ok()).and_then(|t| t.elapsed().ok()).is_some_and(|age| age >= STALE);
        if old && pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// The PID in the name of a run's temporary file or directory: `name` is
/// `prefix` and `PID`, or `PID-N` (the `N`th of that PID); `None` for any
/// other name.
pub fn temp_pid(name: &str, prefix: &str) -> Option<u32> {
    let rest = name.strip_prefix(prefix)?;
    let (pid, n) = rest.split_once('-').unwrap_or((rest, "0"));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    (digits(pid) && digits(n)).then(|| pid.parse().ok()).flatten()
}

/// Writes the binary output: to standard output when `path` is `-` (as `-`
/// is standard input for the input file), else [`write_atomically`].
pub fn write_output(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if path.as_os_str() == "-" {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        return match out.write_all(bytes).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other,
        };
    }
    write_atomically(path, bytes)
}

/// Reads an input file; `-` is standard input.
pub fn read_input(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)?;
        return Ok(bytes);
    }
    std::fs::read(path)
}

/// How diagnostics name an input file: its path, or `<stdin>` for `-`.
pub fn input_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// How messages name an output file: its path, or "standard output" for `-`.
pub fn output_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "standard output".to_string()
    } else {
        path.display().to_string()
    }
}

/// Whether writing `out` would replace the input file `input` (the same
/// file, by whatever path): an assembler refuses, as the source would be lost.
/// Standard input counts too, when it is redirected from `out`
/// (`isa asm - -o src.s < src.s`).
pub fn is_same_file(input: &Path, out: &Path) -> bool {
    if out.as_os_str() == "-" {
        return false;
    }
    if input.as_os_str() == "-" {
        return stdin_is(out);
    }
    matches!((std::fs::canonicalize(input), std::fs::canonicalize(out)), (Ok(a), Ok(b)) if a == b)
}

/// Whether standard input is the file `out` (same device and inode).
#[cfg(unix)]
fn stdin_is(out: &Path) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::MetadataExt;
    let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() else { return false };
    match (std::fs::File::from(fd).metadata(), std::fs::metadata(out)) {
        (Ok(a), Ok(b)) => a.is_file() && a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn stdin_is(_: &Path) -> bool {
    false
}

/// The exit code after printing a command-line parser's message (help,
/// version, usage error) with `print`: `code` when it was written (or the
/// reader went away); when it was not, 1 for help or version (so that
/// `--help > /dev/full` does not succeed silently), and a usage error's
/// own code (2) still, with the reason on standard error.
pub fn printed_exit_code(print: std::io::Result<()>, code: i32) -> i32 {
    match print {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
            code.max(1)
        }
        _ => code,
    }
}

/// Writes `text` to standard output and flushes it. A reader that went
/// away (`| head`) is not an error; any other failure (a full disk) is.
pub fn to_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
