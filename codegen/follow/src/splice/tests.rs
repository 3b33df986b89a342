//! Tests of the splices: items appended in style, splices at one place, entries set,
//! replaced and removed in place.

use super::*;

const TEXT: &str = "# a comment
records:
  Quote:
    doc: A quote. # trailing
    fields:
      - { name: ask, type: number, doc: \"Ask, as sent.\" }
      - name: bid
        type: number
        # a comment inside
        doc: >-
          Bid, folded
          over lines.

      # a comment after
  Other:
    fields: []
values: [1d, \"2 d\"]
";

fn edited(splices: &[Splice]) -> String {
    apply(&[("f".into(), TEXT.into())], splices)[0].1.clone()
}

#[test]
fn items_are_appended_in_the_style_of_the_last_one() {
    let file = File::new("f", TEXT);
    let fields = file.at(&["records", "Quote", "fields"]).unwrap();
    let splice = file.append_item(
        fields,
        &[("name", "venue".into()), ("type", "string".into())],
    );
    let text = edited(&[splice]);
    assert!(
        text.contains("          over lines.\n      - name: venue\n        type: string\n\n      # a comment after"),
        "{text}"
    );
    let values = file.at(&["values"]).unwrap();
    let text = edited(&[file.append_item(values, &[("", "1w".into())])]);
    assert!(text.contains("values: [1d, \"2 d\", 1w]"), "{text}");
    let empty = file.at(&["records", "Other", "fields"]).unwrap();
    let text = edited(&[file.append_item(empty, &[("name", "x".into())])]);
    assert!(text.contains("fields: [{ name: x }]"), "{text}");
}

#[test]
fn splices_at_one_place_read_in_the_order_given_after_a_removal() {
    let s = |at, remove, insert: &str| Splice {
        file: "f".into(),
        at,
        remove,
        insert: insert.into(),
    };
    let files = [("f".to_string(), "abcdef".to_string())];
    let out = apply(
        &files,
        &[s(2, 0, "1"), s(2, 2, ""), s(2, 0, "2"), s(5, 1, "X")],
    );
    assert_eq!(out[0].1, "ab12eX");
    assert!(overlap(&s(2, 2, ""), &s(3, 0, "x")));
    assert!(!overlap(&s(2, 2, ""), &s(2, 0, "x")));
    assert!(!overlap(&s(2, 2, ""), &s(4, 0, "x")));
    assert!(overlap(&s(2, 2, "y"), &s(2, 1, "x")));
}

#[test]
fn entries_are_set_replaced_and_removed_in_place() {
    let file = File::new("f", TEXT);
    let fields = file.at(&["records", "Quote", "fields"]).unwrap();
    let ask = item_with(fields, "name", "ask").unwrap();
    let bid = item_with(fields, "name", "bid").unwrap();
    let splices = [
        file.insert_entry(ask, &["array", "type"], "optional", "true"),
        file.set_entry(ask, &["type"], "type", "string"),
        file.insert_entry(bid, &["type"], "format", "numeric_text"),
        file.replace(
            file.at(&["records", "Quote", "doc"]).unwrap(),
            "\"A quote, now.\"",
        ),
    ];
    let text = edited(&splices);
    assert!(
        text.contains("- { name: ask, type: string, optional: true, doc: \"Ask, as sent.\" }"),
        "{text}"
    );
    assert!(
        text.contains(
            "        type: number\n        format: numeric_text\n        # a comment inside"
        ),
        "{text}"
    );
    assert!(text.contains("doc: \"A quote, now.\" # trailing"), "{text}");
    let text = edited(&[file.remove_entry(ask, "type").unwrap()]);
    assert!(
        text.contains("- { name: ask, doc: \"Ask, as sent.\" }"),
        "{text}"
    );
    let text = edited(&[file.remove_entry(bid, "type").unwrap()]);
    assert!(
        text.contains("      - name: bid\n        # a comment inside"),
        "{text}"
    );
    let text = edited(&[file.remove_item(bid)]);
    assert!(
        text.contains("doc: \"Ask, as sent.\" }\n\n      # a comment after"),
        "{text}"
    );
    assert_eq!(
        file.end(file.at(&["records", "Quote", "fields"]).unwrap()),
        TEXT.find("over lines.").unwrap() + 11
    );
}

/// A key renamed keeps its quoting: in a JSON-style row (`{"as_of":"2026"}`, as drafts write
/// samples) a plain key would take the colon after it into its name.
#[test]
fn a_renamed_key_keeps_its_quotes() {
    let text = "rows:\n  - {\"as_of\":\"2026-11-10\",\"id\":\"7\"}\n  - { plain: 1 }\n";
    let file = File::new("f", text);
    let rows = file.at(&["rows"]).unwrap();
    let quoted = entries(&items(rows)[0])[1].0.clone();
    let plain = entries(&items(rows)[1])[0].0.clone();
    let splices = [
        file.rename_key(&quoted, "venue_code"),
        file.rename_key(&plain, "flat"),
    ];
    let out = apply(&[("f".into(), text.into())], &splices)[0].1.clone();
    assert_eq!(
        out,
        "rows:\n  - {\"as_of\":\"2026-11-10\",\"venue_code\":\"7\"}\n  - { flat: 1 }\n"
    );
    let read: serde_json::Value = mrds_spec::yaml::from_str(&out).unwrap();
    assert_eq!(read["rows"][0]["venue_code"], "7");
}
