//! The index of a small spec: every kind of name at its place.

use super::*;

fn index(sources: &[(&str, &str)]) -> Index {
    let sources: Vec<(String, String)> = sources
        .iter()
        .map(|(n, t)| ((*n).to_owned(), (*t).to_owned()))
        .collect();
    let files: Vec<LoadedFile> = parse_each(&sources).into_iter().flatten().collect();
    Index::build(&files, &sources)
}

const RECORDS: &str = "records:
  Bar:
    doc: A bar.
    fields:
      - { name: t, type: integer, doc: Time. }
      - { name: side, type: Side, doc: Side. }
value_sets:
  Side:
    doc: Side.
    values:
      - { value: buy }
      - { value: sell }
";

const ENDPOINTS: &str = "endpoints:
  bars:
    method: GET
    path: \"/v1/bars/{sym}\"
    summary: Bars.
    auth: required
    returns: Bar
    params:
      - { name: sym, in: path, type: string, required: true, doc: S., assumed: &why \"a reason\" }
      - { name: side, in: query, type: Side, default: buy, doc: S., assumed: *why }
    rules:
      - { id: bars.need, doc: D., requires: { param: side, needs: sym } }
samples:
  bars:
    example: /v1/bars/X
    sets:
      - when: { side: [sell] }
        records:
          - { t: 1, side: buy }
";

/// Each place of `symbol`: its file, line and role, and the text written there.
fn places(ix: &Index, texts: &[&str], symbol: &Symbol) -> Vec<(u32, u32, String, Role)> {
    ix.places(symbol)
        .map(|o| {
            let line = texts[o.span.file as usize]
                .lines()
                .nth(o.span.line as usize - 1)
                .unwrap_or("");
            let text: String = line
                .chars()
                .skip(o.span.column as usize - 1)
                .take(o.len as usize)
                .collect();
            (o.span.file, o.span.line, text, o.role)
        })
        .collect()
}

#[test]
fn records_fields_sets_values_endpoints_params_and_anchors_are_placed() {
    let texts = [RECORDS, ENDPOINTS];
    let ix = index(&[("spec/records.yaml", RECORDS), ("spec/e.yaml", ENDPOINTS)]);
    let at = |symbol: Symbol| places(&ix, &texts, &symbol);
    let (d, r) = (Role::Definition, Role::Reference);
    let s = |t: &str| t.to_owned();
    assert_eq!(
        at(Symbol::Record(s("Bar"))),
        [(0, 2, s("Bar"), d), (1, 7, s("Bar"), r)]
    );
    assert_eq!(
        at(Symbol::ValueSet(s("Side"))),
        [
            (0, 8, s("Side"), d),
            (0, 6, s("Side"), r),
            (1, 10, s("Side"), r)
        ]
    );
    assert_eq!(
        at(Symbol::Value {
            set: s("Side"),
            value: s("buy")
        }),
        [
            (0, 11, s("buy"), d),
            (1, 10, s("buy"), r),
            (1, 19, s("buy"), r)
        ]
    );
    assert_eq!(
        at(Symbol::Value {
            set: s("Side"),
            value: s("sell")
        }),
        [(0, 12, s("sell"), d), (1, 17, s("sell"), r)]
    );
    let sym = Symbol::Param {
        endpoint: s("bars"),
        param: s("sym"),
    };
    assert_eq!(
        at(sym),
        [
            (1, 9, s("sym"), d),
            (1, 4, s("sym"), r),
            (1, 12, s("sym"), r)
        ]
    );
    let side = Symbol::Param {
        endpoint: s("bars"),
        param: s("side"),
    };
    assert_eq!(
        at(side),
        [
            (1, 10, s("side"), d),
            (1, 12, s("side"), r),
            (1, 17, s("side"), r)
        ]
    );
    let ep = Symbol::Endpoint(s("bars"));
    assert_eq!(
        at(ep.clone()),
        [
            (1, 2, s("bars"), d),
            (1, 12, s("bars"), r),
            (1, 14, s("bars"), r)
        ]
    );
    let why = Symbol::Anchor {
        file: 1,
        name: s("why"),
    };
    assert_eq!(at(why), [(1, 9, s("why"), d), (1, 10, s("why"), r)]);
    let t = Symbol::Field {
        record: s("Bar"),
        field: s("t"),
    };
    assert_eq!(at(t), [(0, 5, s("t"), d), (1, 19, s("t"), r)]);
    // The name at a place: the endpoint of a rule id covers less than the id.
    let rule_line = ENDPOINTS.lines().nth(11).unwrap_or("");
    let column = rule_line.find("bars.need").unwrap_or(0) as u32 + 2;
    assert_eq!(ix.at(1, 12, column).map(|o| o.symbol.clone()), Some(ep));
}

#[test]
fn a_file_that_does_not_parse_adds_nothing_and_the_others_still_index() {
    let ix = index(&[
        ("spec/records.yaml", RECORDS),
        ("spec/e.yaml", "endpoints: [\n"),
    ]);
    assert!(ix.definitions.contains_key(&Symbol::Record("Bar".into())));
    assert!(!ix.occurrences.iter().any(|o| o.span.file == 1));
}
