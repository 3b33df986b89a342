//! Snapshots of what an editor gets on the broken-spec corpus's valid base: the cross-file
//! mistakes flagged as they are typed, definitions, references, rename edits, completion,
//! hover, the outline, the inline verdict and the code actions.

use std::collections::BTreeMap;

use insta::assert_snapshot;
use serde_json::{Value, json};

use crate::client::{Client, valid_base};

/// `text` with the one occurrence of `find` replaced.
fn edit(text: &str, find: &str, replace: &str) -> String {
    assert_eq!(text.matches(find).count(), 1, "`{find}` occurs once");
    text.replacen(find, replace, 1)
}

/// Applies a workspace edit's text edits (`changes` or `documentChanges`) to `files`.
fn apply(c: &Client, files: &mut BTreeMap<String, String>, edit: &Value) {
    let mut by_uri: Vec<(String, Vec<Value>)> = Vec::new();
    if let Some(changes) = edit.get("changes").and_then(Value::as_object) {
        for (uri, edits) in changes {
            by_uri.push((uri.clone(), edits.as_array().cloned().unwrap_or_default()));
        }
    }
    if let Some(docs) = edit.get("documentChanges").and_then(Value::as_array) {
        for d in docs {
            let uri = d["textDocument"]["uri"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            by_uri.push((uri, d["edits"].as_array().cloned().unwrap_or_default()));
        }
    }
    for (uri, mut edits) in by_uri {
        let name = files
            .keys()
            .find(|n| c.uri(n).as_str() == uri)
            .cloned()
            .expect("an edit of a spec file");
        let text = files.get_mut(&name).expect("the file");
        let offset = |text: &str, p: &Value| {
            let line = p["line"].as_u64().unwrap_or(0) as usize;
            let ch = p["character"].as_u64().unwrap_or(0) as usize;
            let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
            start + ch
        };
        edits.sort_by_key(|e| {
            (
                e["range"]["start"]["line"].as_u64(),
                e["range"]["start"]["character"].as_u64(),
            )
        });
        for e in edits.iter().rev() {
            let (a, b) = (
                offset(text, &e["range"]["start"]),
                offset(text, &e["range"]["end"]),
            );
            text.replace_range(a..b, e["newText"].as_str().unwrap_or_default());
        }
    }
}

fn position(uri: &str, p: lsp_types::Position) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": p })
}

#[test]
fn the_cross_file_mistakes_and_sample_rows_are_flagged_as_typed_and_cleared_when_fixed() {
    let base = valid_base();
    let mut c = Client::start(&base, None);
    assert!(c.diagnostic_lines().is_empty(), "nothing on the valid spec");
    let api = &base["api.yaml"];
    let samples = &base["samples.yaml"];
    let service = &base["service.yaml"];
    let mistakes: [(&str, &str, String); 13] = [
        (
            "a returns: naming no record",
            "api.yaml",
            edit(
                api,
                "auth: required\n    returns: Bar",
                "auth: required\n    returns: Bars",
            ),
        ),
        (
            "a rule naming a parameter the endpoint lacks",
            "api.yaml",
            edit(api, "needs: start_time }", "needs: start }"),
        ),
        (
            "a parameter of an unknown value set",
            "api.yaml",
            edit(
                api,
                "type: Kind, doc: Kind of bar. }\n      - { name: limit",
                "type: Kinds, doc: Kind of bar. }\n      - { name: limit",
            ),
        ),
        (
            "paging on an unknown parameter",
            "api.yaml",
            edit(api, "paging: { limit: limit }", "paging: { limit: size }"),
        ),
        (
            "samples for an unknown endpoint",
            "samples.yaml",
            edit(samples, "  bars:\n", "  bar:\n"),
        ),
        (
            "a sample echo of an unknown parameter",
            "samples.yaml",
            edit(
                samples,
                "echo: { symbol: symbol }",
                "echo: { symbol: ticker }",
            ),
        ),
        (
            "a field of an unknown type",
            "api.yaml",
            edit(
                api,
                "type: number, doc: Close price.",
                "type: decimal, doc: Close price.",
            ),
        ),
        (
            "a path placeholder without a parameter",
            "api.yaml",
            edit(
                api,
                "path: \"/v1/items/{item_id}/notes\"",
                "path: \"/v1/items/{id}/notes\"",
            ),
        ),
        (
            "a sample row missing a required field",
            "samples.yaml",
            edit(samples, "close: 1.5, ", ""),
        ),
        (
            "a sample value of the wrong type",
            "samples.yaml",
            edit(samples, "close: 1.5", "close: high"),
        ),
        (
            "a sample value outside its value set",
            "samples.yaml",
            edit(samples, "kind: trade }", "kind: trades }"),
        ),
        (
            "an endpoint renamed: its samples, in another file, are flagged",
            "api.yaml",
            edit(api, "  bars:\n", "  prices:\n"),
        ),
        (
            "a record renamed: the other file's reference is flagged",
            "service.yaml",
            edit(service, "  ErrorDetail:\n", "  ErrorDetails:\n"),
        ),
    ];
    let mut out = String::new();
    let mut version = 1;
    for (what, file, text) in &mistakes {
        c.open(file, text);
        c.settle();
        out.push_str(&format!("## {what}\n"));
        for l in c.diagnostic_lines() {
            out.push_str(&format!("{l}\n"));
        }
        version += 1;
        c.change(file, version, &base[*file]);
        c.settle();
        assert!(
            c.diagnostic_lines().is_empty(),
            "{what}: cleared when fixed"
        );
        c.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": c.uri(file).as_str() } }),
        );
    }
    assert_snapshot!(out);
}

#[test]
fn definition_references_and_rename_follow_names_across_files() {
    let mut files = valid_base();
    let mut c = Client::start(&files, None);
    let api = files["api.yaml"].clone();
    let uri = c.uri("api.yaml");
    let mut out = String::new();
    // `type: Kind` of the parameter `kind` to the value set.
    let at = Client::find(
        &api,
        "type: Kind, doc: Kind of bar. }\n      - { name: limit",
        0,
        7,
    );
    let def = c.request("textDocument/definition", position(uri.as_str(), at));
    out.push_str(&format!(
        "definition of `Kind` (a parameter's type):\n{}\n",
        c.redact(&def.expect("an answer"))
    ));
    // The parameter `start_time` from its rule.
    let at = Client::find(&api, "before: start_time", 0, 9);
    let mut p = position(uri.as_str(), at);
    p["context"] = json!({ "includeDeclaration": true });
    let refs = c.request("textDocument/references", p);
    out.push_str(&format!(
        "references of `bars.start_time`:\n{}\n",
        c.redact(&refs.expect("an answer"))
    ));
    // The endpoint renamed from its samples section: rule ids and the samples key follow.
    let samples_uri = c.uri("samples.yaml");
    let at = Client::find(&files["samples.yaml"], "bars:", 0, 1);
    let prepared = c.request(
        "textDocument/prepareRename",
        position(samples_uri.as_str(), at),
    );
    out.push_str(&format!(
        "prepare rename:\n{}\n",
        c.redact(&prepared.expect("an answer"))
    ));
    let mut p = position(samples_uri.as_str(), at);
    p["newName"] = json!("prices");
    let renamed = c.request("textDocument/rename", p).expect("a rename");
    out.push_str(&format!(
        "rename `bars` to `prices`:\n{}\n",
        c.redact(&renamed)
    ));
    apply(&c, &mut files, &renamed);
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(n, t)| (format!("spec/{n}"), t.clone()))
        .collect();
    assert!(
        mrds_spec::load_sources(&sources).is_ok(),
        "the renamed spec loads"
    );
    // The value set renamed: its parameter's type and the record field's follow.
    let at = Client::find(&api, "  Kind:\n", 0, 3);
    let mut p = position(uri.as_str(), at);
    p["newName"] = json!("BarKind");
    let renamed = c.request("textDocument/rename", p).expect("a rename");
    let mut after = valid_base();
    apply(&c, &mut after, &renamed);
    let sources: Vec<(String, String)> = after
        .iter()
        .map(|(n, t)| (format!("spec/{n}"), t.clone()))
        .collect();
    assert!(
        mrds_spec::load_sources(&sources).is_ok(),
        "the renamed spec loads"
    );
    out.push_str(&format!(
        "rename `Kind` to `BarKind`:\n{}\n",
        c.redact(&renamed)
    ));
    // A rename that would not load is refused.
    let at = Client::find(&api, "name: end_time", 0, 7);
    let mut p = position(uri.as_str(), at);
    p["newName"] = json!("start_time");
    let refused = c.request("textDocument/rename", p).expect_err("refused");
    out.push_str(&format!("rename `end_time` to `start_time`: {refused}\n"));
    out.push_str(&format!("messages: {:#?}\n", c.messages));
    assert_snapshot!(out);
}

#[test]
fn completion_hover_and_outline_read_the_model() {
    let files = valid_base();
    let mut c = Client::start(&files, None);
    let api = files["api.yaml"].clone();
    let uri = c.uri("api.yaml");
    let mut out = String::new();
    let labels = |v: &Value| -> Vec<String> {
        v.as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|i| i["label"].as_str().unwrap_or("").to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    for (what, needle, ahead) in [
        ("returns:", "returns: Bar\n    params", 9),
        ("a parameter's type:", "type: Interval,", 6),
        (
            "a record field's type:",
            "type: Kind, doc: Kind of bar. }\n\nvalue_sets",
            6,
        ),
        ("a rule's parameter:", "needs: start_time", 7),
        ("a parameter's default:", "default: 1d", 9),
        ("format:", "format: uuid", 8),
    ] {
        let at = Client::find(&api, needle, 0, ahead);
        let v = c
            .request("textDocument/completion", position(uri.as_str(), at))
            .expect("an answer");
        out.push_str(&format!("completion after {what} {:?}\n", labels(&v)));
    }
    let samples = &files["samples.yaml"];
    let samples_uri = c.uri("samples.yaml");
    let at = Client::find(samples, "kind: trade }", 0, 6);
    let v = c
        .request(
            "textDocument/completion",
            position(samples_uri.as_str(), at),
        )
        .expect("an answer");
    out.push_str(&format!(
        "completion of a sample's value-set field: {:?}\n",
        labels(&v)
    ));
    for (what, needle, ahead) in [
        (
            "the parameter `limit`",
            "name: limit, in: query, type: integer, min: 1, max: 100",
            6,
        ),
        ("the parameter `interval`", "name: interval", 6),
        ("the record `Bar`", "returns: Bar\n    params", 9),
        ("the endpoint `bars`", "  bars:", 2),
    ] {
        let at = Client::find(&api, needle, 0, ahead);
        let v = c
            .request("textDocument/hover", position(uri.as_str(), at))
            .expect("an answer");
        out.push_str(&format!(
            "hover of {what}:\n{}\n\n",
            v["contents"]["value"].as_str().unwrap_or("")
        ));
    }
    let v = c
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri.as_str() } }),
        )
        .expect("an answer");
    let outline: Vec<String> = v
        .as_array()
        .map(|s| {
            s.iter()
                .map(|s| {
                    let children: Vec<&str> = s["children"]
                        .as_array()
                        .map(|c| c.iter().filter_map(|c| c["name"].as_str()).collect())
                        .unwrap_or_default();
                    format!(
                        "{} ({}): {}",
                        s["name"].as_str().unwrap_or(""),
                        s["detail"].as_str().unwrap_or(""),
                        children.join(", ")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.push_str(&format!("outline of api.yaml:\n{}\n", outline.join("\n")));
    let v = c
        .request("workspace/symbol", json!({ "query": "bar" }))
        .expect("an answer");
    let names: Vec<String> = v
        .as_array()
        .map(|s| {
            s.iter()
                .map(|s| {
                    format!(
                        "{} ({})",
                        s["name"].as_str().unwrap_or(""),
                        s["containerName"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.push_str(&format!("workspace symbols `bar`: {names:?}\n"));
    assert_snapshot!(out);
}

#[test]
fn the_verdict_is_inline_and_the_code_action_writes_the_history_row() {
    let base = valid_base();
    let mut files = base.clone();
    let mut c = Client::start(&files, Some(&base));
    assert!(c.diagnostic_lines().is_empty(), "no change, no verdict");
    let mut out = String::new();
    // A bound narrowed: breaking, not acknowledged.
    let narrowed = edit(&files["api.yaml"], "min: 1, max: 100,", "min: 1, max: 50,");
    files.insert("api.yaml".into(), narrowed.clone());
    c.open("api.yaml", &narrowed);
    c.settle();
    out.push_str(&format!(
        "a bound narrowed:\n{}\n",
        c.diagnostic_lines().join("\n")
    ));
    let uri = c.uri("api.yaml");
    let diagnostics = serde_json::to_value(&c.diagnostics["api.yaml"]).expect("JSON");
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri.as_str() },
                "range": diagnostics[0]["range"],
                "context": { "diagnostics": diagnostics },
            }),
        )
        .expect("actions");
    let titles: Vec<&str> = actions
        .as_array()
        .map(|a| a.iter().filter_map(|a| a["title"].as_str()).collect())
        .unwrap_or_default();
    out.push_str(&format!("code actions: {titles:?}\n"));
    let first = actions[0]["edit"].clone();
    let mut written = files.clone();
    apply(&c, &mut written, &first);
    let service = written["service.yaml"].clone();
    let added: Vec<&str> = service
        .lines()
        .filter(|l| !base["service.yaml"].lines().any(|b| b == *l))
        .collect();
    out.push_str(&format!(
        "the row the action writes:\n{}\n",
        added.join("\n")
    ));
    c.open("service.yaml", &service);
    c.settle();
    out.push_str(&format!("after it:\n{}\n", c.diagnostic_lines().join("\n")));
    // A typo's "did you mean" fix.
    let typo = edit(
        &narrowed,
        "required: true, pattern",
        "reqired: true, pattern",
    );
    c.change("api.yaml", 2, &typo);
    c.settle();
    let diagnostics = serde_json::to_value(&c.diagnostics["api.yaml"]).expect("JSON");
    let actions = c
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri.as_str() },
                "range": diagnostics[0]["range"],
                "context": { "diagnostics": diagnostics },
            }),
        )
        .expect("actions");
    out.push_str(&format!(
        "a typo: {}\nits fix: {}\n",
        c.diagnostic_lines().join("\n"),
        c.redact(&actions)
    ));
    assert_snapshot!(out.replace(&today(&service), "<today>"));
}

/// The date the code action wrote (today's).
fn today(service: &str) -> String {
    service
        .lines()
        .find_map(|l| l.trim().strip_prefix("- date: "))
        .unwrap_or("")
        .to_owned()
}
