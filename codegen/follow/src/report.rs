//! The report made of the items: each edit's lines, the splices of the edits that do not
//! overlap an earlier one, the files drafts and new endpoints add, one history row for the
//! release they describe, the predicted spec-diff check ids, the edited spec loaded again,
//! and the unified diff.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use mrds_runtime::drift::{Evidence, Finding, MAX_EXAMPLES, Observed, Source};

use mrds_diff::{ChangeKind, Impact};

use super::cx::Cx;
use super::splice::{self, Splice};
use super::{Edit, Group, Item, Report, draft, examples, fields, plural, rename, rules, scalar};

/// The spec edits that would describe `findings`, read against `api` (loaded from `sources`,
/// the spec's files as the loader names them).
pub(crate) fn build(cx: &Cx<'_>, findings: &[Finding], extra: Vec<Item>) -> Report {
    let (sources, options) = (cx.sources, cx.options);
    // By section, then by what they are about, then by kind; the whole observation last, so
    // two of one kind on one field (two rules' statuses, say) stay apart.
    type Key = (u8, String, String, &'static str, Observed);
    let mut groups: BTreeMap<Key, Group> = BTreeMap::new();
    let mut undocumented: Vec<draft::Undocumented> = Vec::new();
    for f in findings {
        let o = &f.observed;
        if let Observed::Undocumented { method, path } = o {
            undocumented.push(draft::Undocumented {
                method: method.clone(),
                template: path.clone(),
                traffic: f.traffic.as_deref().cloned().unwrap_or_default(),
                requests: f.count,
            });
            continue;
        }
        let subject = o
            .value_set()
            .or(o.record())
            .or(o.rule())
            .unwrap_or_default()
            .to_string();
        let part = o.field().or(o.value_set()).unwrap_or_default().to_string();
        let key = (order(o), subject, part, o.kind(), o.clone());
        let group = groups.entry(key).or_insert_with(|| Group {
            observed: f.observed.clone(),
            endpoints: BTreeMap::new(),
            sources: BTreeSet::new(),
            count: 0,
            examples: Vec::new(),
            evidence: Evidence::default(),
        });
        *group.endpoints.entry(f.endpoint.clone()).or_default() += f.count;
        group.sources.insert(f.source);
        group.count = group.count.saturating_add(f.count);
        for e in &f.examples {
            if group.examples.len() < MAX_EXAMPLES && !group.examples.contains(e) {
                group.examples.push(e.clone());
            }
        }
        if let Some(evidence) = &f.evidence {
            group.evidence.merge(evidence);
        }
    }
    let sources_seen: BTreeSet<Source> = findings.iter().map(|f| f.source).collect();
    let groups: Vec<&Group> = groups.values().collect();
    // A required field gone while a new one of its type appeared: one item, a rename.
    let renames = rename::find(cx, &groups);
    let paired: BTreeSet<usize> = renames.iter().flat_map(|(_, pair)| *pair).collect();
    let mut items: Vec<(Option<&Group>, Item)> = (groups.iter().enumerate())
        .filter(|(i, _)| !paired.contains(i))
        .map(|(_, group)| (Some(*group), item(cx, group)))
        .collect();
    for (r, [_, new]) in &renames {
        let group = groups[*new];
        items.push((Some(group), rename::item(cx, r)));
    }
    items.extend(extra.into_iter().map(|i| (None, i)));
    let dir = sources
        .first()
        .and_then(|(name, _)| name.split_once('/'))
        .map_or("spec", |(dir, _)| dir);
    items.extend(drafts(cx, undocumented, dir).into_iter().map(|i| (None, i)));

    let mut edits = 0;
    let mut notes = 0;
    let mut by_hand = 0;
    let mut body = String::new();
    let mut splices: Vec<Splice> = Vec::new();
    let mut new_files: Vec<(String, String)> = Vec::new();
    let mut predicted: BTreeSet<&'static str> = BTreeSet::new();
    let mut breaking: BTreeSet<String> = BTreeSet::new();
    let mut listed: Vec<String> = Vec::new();
    // The edits made, by their number, with their splices.
    let mut applied: Vec<(usize, Vec<Splice>)> = Vec::new();
    for (group, item) in &items {
        let seen = group.map(seen).unwrap_or_default();
        match item {
            Item::Edit(edit) => {
                edits += 1;
                let _ = writeln!(body, "\n{edits}. {}", edit.headline);
                if !seen.is_empty() {
                    let _ = writeln!(body, "   {seen}");
                }
                if !edit.check.is_empty() {
                    let ids: Vec<String> = edit
                        .check
                        .iter()
                        .map(|c| format!("`{}`", c.info().id))
                        .collect();
                    let _ = writeln!(body, "   spec-diff: {}", ids.join(" or "));
                }
                let _ = writeln!(body, "   {}", edit.place);
                for line in &edit.change {
                    let _ = writeln!(body, "       {line}");
                }
                for b in &edit.brings {
                    let _ = writeln!(body, "   brings along {b}");
                }
                let overlaps = (edit.splices.iter())
                    .any(|new| splices.iter().any(|old| splice::overlap(old, new)));
                if edit.by_hand() || overlaps {
                    by_hand += 1;
                    let why = if overlaps {
                        " (it changes what an edit above changes)"
                    } else {
                        ""
                    };
                    let _ = writeln!(body, "   (to be written by hand{why})");
                    continue;
                }
                splices.extend(edit.splices.iter().cloned());
                applied.push((edits, edit.splices.clone()));
                new_files.extend(edit.files.iter().cloned());
                listed.extend(edit.history.iter().cloned());
                for kind in &edit.check {
                    predicted.insert(kind.info().id);
                    // An endpoint's appearing is acknowledged by its history row.
                    if may_break(*kind) && *kind != ChangeKind::EndpointAdded {
                        breaking.extend(edit.subjects.iter().cloned());
                    }
                }
                if !edit.brings.is_empty() {
                    predicted.insert(ChangeKind::SamplesChanged.info().id);
                }
            }
            Item::Note(text) => {
                notes += 1;
                let _ = writeln!(body, "\nnote: {text}");
                if !seen.is_empty() {
                    let _ = writeln!(body, "   {seen}");
                }
            }
        }
    }
    // What the edits break as spec-diff will say it, by subject: an edit of a definition shared
    // through a YAML alias changes every endpoint or record that reads it.
    if !breaking.is_empty() {
        let found = broken_subjects(cx, &splices, &new_files, &listed, &breaking);
        breaking.extend(found);
    }
    // One history row for the release the edits describe: the endpoints they add or remove
    // (`changes:`) and what they break (`breaking:`).
    if (!breaking.is_empty() || !listed.is_empty())
        && let Some(row) = acknowledgment(cx, &listed, &breaking)
    {
        let mut says = Vec::new();
        if !listed.is_empty() {
            says.push(format!(
                "the {} endpoint{} the edits add or remove (`changes:`)",
                listed.len(),
                plural(listed.len())
            ));
        }
        if !breaking.is_empty() {
            let ids: Vec<String> = breaking.iter().map(|b| format!("`{b}`")).collect();
            says.push(format!(
                "what breaks old clients or servers ({}, `breaking:`)",
                ids.join(", ")
            ));
        }
        let _ = writeln!(
            body,
            "\nOne history row of {} names {}, its release tag to complete.",
            options.today,
            says.join(" and ")
        );
        splices.push(row);
        // The rows of one date are one entry: a row of a date the history has changes it.
        let dated = cx.api.history.iter().any(|h| h.date == cx.today());
        let kind = match dated {
            true => ChangeKind::HistoryEntryChanged,
            false => ChangeKind::HistoryEntryAdded,
        };
        predicted.insert(kind.info().id);
    }
    let source_names: Vec<&str> = sources_seen.iter().map(|s| source_name(*s)).collect();
    let mut text = format!(
        "{} finding{}{}: {} spec edit{}{}\n",
        findings.len(),
        plural(findings.len()),
        if source_names.is_empty() {
            String::new()
        } else {
            format!(" from {}", source_names.join(" and "))
        },
        edits,
        plural(edits),
        match notes {
            0 => String::new(),
            n => format!(", {n} note{}", plural(n)),
        }
    );
    text.push_str(&body);

    // The spec the edits make, whether it loads, and the example requests it keeps answering.
    let mut all = splice::apply(sources, &splices);
    all.extend(new_files);
    let changed = |all: &[(String, String)]| -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = (all.iter())
            .filter(|(name, text)| !sources.iter().any(|(n, t)| n == name && t == text))
            .cloned()
            .collect();
        files.sort();
        files
    };
    let mut problems = None;
    let mut lost = Vec::new();
    if !changed(&all).is_empty() {
        match mrds_spec::load_sources(&all) {
            Err(d) => problems = Some(d.to_string()),
            Ok(after) => {
                lost = examples::keep(cx, &after, &all, &applied);
                let rewritten: Vec<Splice> = lost.iter().filter_map(|l| l.splice.clone()).collect();
                if !rewritten.is_empty() {
                    all = splice::apply(&all, &rewritten);
                    problems = mrds_spec::load_sources(&all).err().map(|d| d.to_string());
                    predicted.insert(ChangeKind::SamplesChanged.info().id);
                }
            }
        }
    }
    if !lost.is_empty() {
        let _ = writeln!(
            text,
            "\nThe edits change what {} example request{} of the samples answer{}:",
            lost.len(),
            plural(lost.len()),
            if lost.len() == 1 { "s" } else { "" }
        );
        for l in &lost {
            let _ = writeln!(text, "- {}", l.text);
        }
    }
    let examples_by_hand = lost.iter().filter(|l| l.splice.is_none()).count();
    let files = changed(&all);
    let diff = unified(sources, &files);
    if edits > 0 {
        match &problems {
            None => text.push_str(
                "\nThe edited spec loads. `--apply` writes the edits; then `cargo xtask codegen` and \
                 `cargo xtask spec-diff`, which reports each edit by the check id above.\n",
            ),
            Some(p) => {
                let _ = write!(text, "\nThe edited spec does not load; `--apply` writes nothing:\n{p}\n");
            }
        }
        if by_hand > 0 {
            let _ = writeln!(text, "{by_hand} of the edits are to be written by hand.");
        }
        if examples_by_hand > 0 {
            let _ = writeln!(
                text,
                "{examples_by_hand} example request{} to be rewritten by hand (above).",
                plural(examples_by_hand)
            );
        }
    } else if findings.is_empty() {
        text.push_str("Nothing was observed that the spec does not describe.\n");
    }
    Report {
        text,
        edits,
        notes,
        files,
        diff,
        predicted: predicted.into_iter().collect(),
        problems,
        by_hand: by_hand + examples_by_hand,
    }
}

/// The subjects of the breaking changes spec-diff finds between the spec and the spec the
/// `splices` and `new_files` make, with the history row of what is known so far (`listed`,
/// `breaking`: an endpoint marked removed needs its row to load), but for the endpoints
/// added, which their history row's `changes` acknowledge. Nothing when that spec does not
/// load.
fn broken_subjects(
    cx: &Cx<'_>,
    splices: &[Splice],
    new_files: &[(String, String)],
    listed: &[String],
    breaking: &BTreeSet<String>,
) -> BTreeSet<String> {
    let mut splices = splices.to_vec();
    splices.extend(acknowledgment(cx, listed, breaking));
    let mut all = splice::apply(cx.sources, &splices);
    all.extend(new_files.iter().cloned());
    let Ok(new) = mrds_spec::load_sources_to_compare(&all) else {
        return BTreeSet::new();
    };
    let changes = mrds_diff::compare(cx.api, &new);
    (changes.contract.iter())
        .filter(|f| f.is_breaking() && f.kind != ChangeKind::EndpointAdded)
        .map(|f| f.subject.clone())
        .collect()
}

/// Whether a change of `kind` may break old clients or old servers.
fn may_break(kind: ChangeKind) -> bool {
    let info = kind.info();
    [info.clients, info.servers]
        .iter()
        .any(|i| i.fixed().is_none_or(|i| i == Impact::Breaking))
}

/// The one history row of the edits: the endpoints they add or remove (`listed`, as the
/// row's `changes` items) and the breaking changes they make, added first to the history of
/// the file holding the newest row.
fn acknowledgment(cx: &Cx<'_>, listed: &[String], breaking: &BTreeSet<String>) -> Option<Splice> {
    let newest = (cx.files.iter())
        .filter_map(|f| {
            let history = f.at(&["history"])?;
            let date = splice::items(history)
                .iter()
                .filter_map(|h| splice::value(h, "date")?.as_scalar().map(str::to_string))
                .max()?;
            Some((date, f, history))
        })
        .max_by(|a, b| a.0.cmp(&b.0));
    let (_, file, history) = newest?;
    let names: Vec<String> = breaking.iter().map(|b| scalar(b)).collect();
    let mut entries: Vec<(&str, String)> = vec![
        ("date", cx.today().to_string()),
        (
            "versions",
            format!(
                "[{}] # the provider's release that made these changes: complete",
                draft::next_version(cx.api)
            ),
        ),
    ];
    if !listed.is_empty() {
        entries.push(("changes", format!("[{}]", listed.join(", "))));
    }
    if !names.is_empty() {
        entries.push(("breaking", format!("[{}]", names.join(", "))));
    }
    Some(file.insert_item(history, Some(usize::MAX), &entries))
}

/// The items of undocumented endpoints: a draft file each.
fn drafts(cx: &Cx<'_>, found: Vec<draft::Undocumented>, dir: &str) -> Vec<Item> {
    if found.is_empty() {
        return Vec::new();
    }
    let mut taken = draft::Taken::of(cx.api);
    let mut out = Vec::new();
    for u in draft::merge(found) {
        let what = format!("`{} {}`", u.method, u.template);
        let known = cx
            .api
            .endpoints
            .iter()
            .any(|e| e.method.as_str() == u.method && e.path.to_string() == u.template);
        if known {
            out.push(Item::Note(format!("{what}: the spec describes it now")));
            continue;
        }
        match draft::draft(&u, &mut taken, dir) {
            Ok(d) => out.push(Item::Edit(Edit {
                files: vec![(d.file.clone(), d.text.clone())],
                history: vec![format!(
                    "{{ action: added, method: {}, path: {} }}",
                    u.method,
                    scalar(&u.template)
                )],
                ..Edit::new(
                    format!(
                        "{what} answers {} request{} the spec has no endpoint for: a draft of `{}`",
                        u.requests,
                        plural(u.requests as usize),
                        d.id
                    ),
                    vec![ChangeKind::EndpointAdded],
                    format!(
                        "{}: a new file, {} facts inferred from {} observed answer{} (each marked `assumed:`):",
                        d.file,
                        d.facts,
                        u.traffic.answers,
                        plural(u.traffic.answers as usize)
                    ),
                    d.text.lines().filter(|l| !l.starts_with('#')).take(12).map(str::to_string).chain(["...".to_string()]).collect(),
                )
            })),
            Err(why) => out.push(Item::Note(format!(
                "{what} answers requests the spec has no endpoint for, but no draft is made: {why}"
            ))),
        }
    }
    out
}

/// The edits as a unified diff of the spec's files (a new file against nothing).
fn unified(sources: &[(String, String)], files: &[(String, String)]) -> String {
    let mut out = String::new();
    for (name, new) in files {
        let old = sources
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, t)| t.as_str());
        let (a, b) = if old.is_empty() {
            ("/dev/null".to_string(), format!("b/{name}"))
        } else {
            (format!("a/{name}"), format!("b/{name}"))
        };
        let diff = similar::TextDiff::from_lines(old, new.as_str());
        let _ = write!(
            out,
            "{}",
            diff.unified_diff().context_radius(2).header(&a, &b)
        );
    }
    out
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Client => "the client",
        Source::Proxy => "the proxy",
        Source::Recorded => "recorded traffic",
        Source::Watch => "the watch",
        _ => "another source",
    }
}

/// Sections of the report: the envelope, records, value sets, rules.
fn order(o: &Observed) -> u8 {
    match o {
        Observed::UndeclaredEnvelopeField { .. } => 0,
        o if o.record() == Some("envelope") => 0,
        Observed::UnknownValue { .. } => 2,
        Observed::RuleStricter { .. } | Observed::RuleLooser { .. } => 3,
        o if o.field().is_some() => 1,
        _ => 4,
    }
}

/// `seen 44 times by the client: 41 on stock_dividends, 3 on etf_flow; e.g. "USD", "EUR"`.
fn seen(group: &Group) -> String {
    let times = if group.count == 1 {
        "once".to_string()
    } else {
        format!("{} times", group.count)
    };
    let who: Vec<&str> = group.sources.iter().map(|s| source_name(*s)).collect();
    let on = if group.endpoints.len() == 1 {
        let endpoint = group.endpoints.keys().next().map_or("", String::as_str);
        format!(" on {endpoint}")
    } else {
        let each: Vec<String> = group
            .endpoints
            .iter()
            .map(|(e, n)| format!("{n} on {e}"))
            .collect();
        format!(": {}", each.join(", "))
    };
    let mut text = format!("seen {times} by {}{on}", who.join(" and "));
    if !group.examples.is_empty() && !matches!(group.observed, Observed::UnknownValue { .. }) {
        text.push_str(&format!("; e.g. {}", group.examples.join(", ")));
    }
    text
}

fn item(cx: &Cx<'_>, group: &Group) -> Item {
    match &group.observed {
        Observed::UndeclaredField { record, field } => fields::undeclared(cx, group, record, field),
        Observed::UndeclaredEnvelopeField { field } => {
            fields::undeclared(cx, group, "envelope", field)
        }
        Observed::UnknownValue {
            record,
            field,
            value_set,
        } => fields::unknown_values(cx, group, record, field, value_set),
        Observed::RequiredNull { record, field } => {
            fields::not_required(cx, record, field, "arrives null")
        }
        Observed::RequiredMissing { record, field } => {
            fields::not_required(cx, record, field, "is missing from answers")
        }
        Observed::WrongType {
            record,
            field,
            expected,
            got,
        } => fields::wrong_type(cx, group, record, field, *expected, *got),
        Observed::WrongFormat {
            record,
            field,
            format,
        } => fields::wrong_format(cx, group, record, field, format),
        Observed::WholeNumber { record, field } => fields::whole_numbers(group, record, field),
        Observed::OutOfRange { record, field } => fields::out_of_range(group, record, field),
        Observed::RuleStricter { rule, status } => rules::stricter(cx, group, rule, *status),
        Observed::RuleLooser {
            rule,
            status,
            reason,
        } => rules::looser(cx, group, rule.as_deref(), *status, reason.as_deref()),
        other => Item::Note(format!(
            "`{}`: a kind of finding this version does not know",
            other.kind()
        )),
    }
}
