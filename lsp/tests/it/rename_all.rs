//! An explicit run (`cargo test --release -p mrds-lsp --test it -- --ignored rename_all`):
//! every name the real spec defines, renamed through the index's places, leaves a spec that
//! loads. Too slow for the default run (a load of the real spec per name).

use mrds_spec::index::{Index, Symbol, parse_each};

#[test]
#[ignore = "an explicit run: one load of the real spec per name"]
fn rename_all_every_name_of_the_real_spec_renamed_leaves_a_spec_that_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../spec");
    let sources = mrds_spec::load::read_dir(&dir).expect("the spec");
    let files: Vec<_> = parse_each(&sources).into_iter().flatten().collect();
    let index = Index::build(&files, &sources);
    let mut failures = Vec::new();
    let symbols: Vec<&Symbol> = index.definitions.keys().collect();
    for symbol in &symbols {
        if matches!(symbol, Symbol::Anchor { .. }) {
            continue;
        }
        let new_name = format!("{}x", symbol.name());
        let mut renamed = sources.clone();
        // Edits from the end of each line backwards, so earlier columns stay right.
        let mut places = index.rename_places(symbol);
        places.sort_by_key(|o| std::cmp::Reverse((o.span.file, o.span.line, o.span.column)));
        for o in places {
            let text = &mut renamed[o.span.file as usize].1;
            let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
            let line = &mut lines[o.span.line as usize - 1];
            let chars: Vec<char> = line.chars().collect();
            let (a, b) = (
                (o.span.column - 1) as usize,
                (o.span.column - 1 + o.len) as usize,
            );
            *line = chars[..a].iter().collect::<String>()
                + &new_name
                + &chars[b..].iter().collect::<String>();
            *text = lines.join("\n");
        }
        if let Err(d) = mrds_spec::load_sources(&renamed) {
            // Refused, rightly: the values of a direction's set are the words `asc` and `desc`
            // themselves; the runtime writes and reads the error object's fields by name.
            // Not followed: a value written percent-encoded in an example's query.
            let m = &d.0[0].message;
            let refused = m.contains("not of a value set of `asc` and `desc`")
                || m.contains("which the runtime writes and reads")
                || m.contains("must be declared with a record with `field`, `got` and `reason`");
            let encoded = symbol.name().contains(' ');
            if !refused && !encoded {
                failures.push(format!("{}: {}", symbol.qualified(), d.0[0]));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} renames do not load:\n{}",
        failures.len(),
        symbols.len(),
        failures.join("\n")
    );
}
