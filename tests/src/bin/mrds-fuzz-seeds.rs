//! Writes the fuzz targets' seed corpora and dictionaries (`mrds_tests::fuzz::seeds`) below the
//! directory given (the fuzz package, `fuzz/`): `corpus/<target>/seed-*`, replacing the seeds
//! there (other inputs of a corpus are left alone), and `dict/*.dict`. `fuzz/seed.sh` runs it.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(root) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: mrds-fuzz-seeds FUZZ_DIR");
        return ExitCode::from(2);
    };
    match write(&root) {
        Ok((seeds, dicts)) => {
            println!(
                "{seeds} seeds, {dicts} dictionaries written below {}",
                root.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mrds-fuzz-seeds: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write(root: &std::path::Path) -> std::io::Result<(usize, usize)> {
    let seeds = mrds_tests::fuzz::seeds::all();
    for (target, _) in mrds_tests::fuzz::TARGETS {
        let dir = root.join("corpus").join(target);
        std::fs::create_dir_all(&dir)?;
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
            {
                std::fs::remove_file(path)?;
            }
        }
    }
    for seed in &seeds {
        let name: String = seed
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        std::fs::write(
            root.join("corpus").join(seed.target).join(name),
            &seed.bytes,
        )?;
    }
    let dicts = mrds_tests::fuzz::seeds::dictionaries();
    std::fs::create_dir_all(root.join("dict"))?;
    for (name, text) in &dicts {
        std::fs::write(root.join("dict").join(name), text)?;
    }
    Ok((seeds.len(), dicts.len()))
}
