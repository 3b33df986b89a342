//! Parameters of one endpoint: added, removed (a rename is both), required or not, defaults,
//! location, type, format, range and pattern.
//!
//! Query parameters are matched by name; path parameters by position when the path keeps its
//! shape (their names are not on the wire). Whatever constrains a value (type, range, format,
//! pattern) is compared as the language of texts it accepts ([`super::lang`]): old clients
//! break when they may send a text new servers reject, old servers when new clients may.

use super::ChangeKind;
use super::impact::*;
use super::lang::{Lang, format_name};
use super::{Diff, Impact, changed_parts};
use crate::model::{
    Endpoint, Inclusion, Input, Operand, Param, ParamLocation, Place, StringType, ValueCheck,
    ValueType,
};

/// `string`, `integer`, `boolean` or `value set X`.
fn kind(ty: &ValueType) -> String {
    match ty {
        ValueType::Integer(_) => "integer".into(),
        ValueType::String(_) => "string".into(),
        ValueType::Boolean => "boolean".into(),
        ValueType::Enum(e) => format!("value set {}", e.name),
    }
}

impl Diff<'_> {
    pub(super) fn params(&mut self, o: &Endpoint, n: &Endpoint) {
        let same_shape = super::endpoints::shape(&o.path) == super::endpoints::shape(&n.path);
        // Path parameters by their place in the path; query parameters by name.
        let renamed_path: Vec<(&str, &str)> = if same_shape {
            (o.path.params().map(|id| o.param(id).wire.as_str()))
                .zip(n.path.params().map(|id| n.param(id).wire.as_str()))
                .collect()
        } else {
            Vec::new()
        };
        let counterpart = |p: &Param| -> Option<&Param> {
            match renamed_path.iter().find(|(from, _)| *from == p.wire) {
                Some((_, to)) if p.location == ParamLocation::Path => n.param_named(to),
                _ => n.param_named(&p.wire).filter(|q| {
                    !(q.location == ParamLocation::Path
                        && renamed_path.iter().any(|(_, to)| *to == q.wire))
                }),
            }
        };
        let mut matched: Vec<&str> = Vec::new();
        let mut gone: Vec<&Param> = Vec::new();
        for p in &o.params {
            match counterpart(p) {
                Some(q) => {
                    matched.push(&q.wire);
                    self.param((o, n), p, q);
                }
                None => gone.push(p),
            }
        }
        let fresh: Vec<&Param> = n
            .params
            .iter()
            .filter(|q| !matched.contains(&q.wire.as_str()))
            .collect();
        let rename_hint = |p: &Param, others: &[&Param], to: bool| -> String {
            others
                .iter()
                .find(|q| q.ty == p.ty && q.location == p.location)
                .map_or(String::new(), |q| {
                    format!(
                        " (perhaps renamed {} `{}`: on the wire a rename is a removal and an addition)",
                        if to { "to" } else { "from" },
                        q.wire
                    )
                })
        };
        for p in &gone {
            let subject = format!("{}.{}", n.id, p.wire);
            let hint = rename_hint(p, &fresh, true);
            if p.required {
                self.push(ChangeKind::ParamRemovedRequired, subject, SERVERS_BREAK, format!(
                        "required parameter `{}` is gone{hint}: new servers ignore it from old clients; new clients leave it out and old servers reject their requests ({})",
                        p.wire,
                        o.param_rule(p, ValueCheck::Required)
                    ), (Some(&p.at), Some(&n.at)));
            } else {
                self.push(ChangeKind::ParamRemovedOptional, subject, COMPATIBLE, format!(
                        "optional parameter `{}` is gone{hint}: new servers ignore it, so old clients that send it get answers it does not shape; new clients leave it out",
                        p.wire
                    ), (Some(&p.at), Some(&n.at)));
            }
        }
        for q in &fresh {
            let subject = format!("{}.{}", n.id, q.wire);
            let hint = rename_hint(q, &gone, false);
            if q.required {
                self.push(ChangeKind::ParamAddedRequired, subject, CLIENTS_BREAK, format!(
                        "new required {} parameter `{}`{hint}: old clients do not send it and new servers reject their requests ({}); old servers ignore it",
                        kind(&q.ty),
                        q.wire,
                        n.param_rule(q, ValueCheck::Required)
                    ), (Some(&o.at), Some(&q.at)));
            } else {
                let default = q
                    .default
                    .as_ref()
                    .map_or("without a default".to_owned(), |d| {
                        format!("with default `{}`", d.wire())
                    });
                self.push(ChangeKind::ParamAddedOptional, subject, COMPATIBLE, format!(
                        "new optional {} parameter `{}` {default}{hint}: old clients leave it out; old servers ignore it, so new clients that send it get answers it does not shape",
                        kind(&q.ty),
                        q.wire
                    ), (Some(&o.at), Some(&q.at)));
            }
        }
    }

    /// One parameter on both sides (`n` is the new endpoint).
    fn param(&mut self, (e_old, n): (&Endpoint, &Endpoint), o: &Param, q: &Param) {
        let subject = format!("{}.{}", n.id, q.wire);
        let at = (Some(&o.at), Some(&q.at));
        if o.location != q.location {
            self.push(ChangeKind::ParamLocationChanged, &subject, BOTH_BREAK, format!(
                    "`{}` travels in the {} instead of the {}: neither side finds it where the other puts it",
                    q.wire,
                    location(q.location),
                    location(o.location)
                ), at);
        } else if o.wire != q.wire {
            self.push(ChangeKind::ParamPathRenamed, &subject, DOCS, format!(
                    "path parameter `{}` is called `{}`: its place in the path is unchanged and its name is not on the wire",
                    o.wire, q.wire
                ), at);
        }
        match (o.required, q.required) {
            (false, true) => self.push(ChangeKind::ParamNowRequired, &subject, CLIENTS_BREAK, format!(
                    "`{}` became required: old clients may leave it out and new servers reject that ({}); new clients always send it",
                    q.wire,
                    n.param_rule(q, ValueCheck::Required)
                ), at),
            (true, false) => self.push(ChangeKind::ParamNowOptional, &subject, SERVERS_BREAK, format!(
                    "`{}` became optional: old clients still send it; new clients may leave it out and old servers reject that ({}.{}.required)",
                    q.wire, n.id, o.wire
                ), at),
            (false, false) if o.default != q.default => {
                let show = |p: &Param| {
                    p.default
                        .as_ref()
                        .map_or("none".to_owned(), |d| format!("`{}`", d.wire()))
                };
                self.push(ChangeKind::ParamDefaultChanged, &subject, BOTH_BREAK, format!(
                        "default of `{}` {} became {}: a request leaving it out means one thing to old servers and another to new ones (generated clients send their default explicitly and are not affected)",
                        q.wire,
                        show(o),
                        show(q)
                    ), at);
            }
            _ => {}
        }
        if let (Some(a), Some(b)) = (
            self.old.inputs(e_old).get(Operand::Param(o.id)),
            self.new.inputs(n).get(Operand::Param(q.id)),
        ) {
            self.param_values(n, &subject, &a, &b);
        }
        if let Some(parts) = changed_parts(&[
            ("doc", o.doc != q.doc),
            ("provenance", o.provenance != q.provenance),
            ("pattern doc", pattern_doc(o) != pattern_doc(q)),
        ]) {
            self.push(
                ChangeKind::ParamDocChanged,
                &subject,
                DOCS,
                format!("the {parts} of `{}` changed", q.wire),
                at,
            );
        }
    }

    /// Type, range, format and pattern: the texts each side accepts. A field of a body
    /// (`body.<field>`) is compared alike and reported with the `body.*` checks.
    pub(super) fn param_values(
        &mut self,
        n: &Endpoint,
        subject: &str,
        o: &Input<'_>,
        q: &Input<'_>,
    ) {
        let at = (Some(o.at), Some(q.at));
        let name = q.name();
        let rule = |check: ValueCheck| n.value_rule(&name, check);
        let body = q.place == Place::Body;
        // The check reported, from whether each side accepts what the other sends.
        let pick = |param: ChangeKind| {
            move |clients: bool, servers: bool| {
                if body {
                    constraint_check(clients, servers)
                } else {
                    param
                }
            }
        };
        match (o.ty, q.ty) {
            (ValueType::Integer(a), ValueType::Integer(b)) => {
                if (a.min, a.max) != (b.min, b.max) {
                    let (old, new) = (Lang::of_param(o.ty), Lang::of_param(q.ty));
                    let (clients, servers) = (old.included_in(&new), new.included_in(&old));
                    let check = match (clients.holds(), servers.holds()) {
                        // The bounds are spelled otherwise, the integers are the same.
                        (true, true) => ChangeKind::ParamDocChanged,
                        (true, false) => ChangeKind::ParamRangeWidened,
                        (false, true) => ChangeKind::ParamRangeNarrowed,
                        (false, false) => ChangeKind::ParamRangeChanged,
                    };
                    let what = format!("range of `{}` {} became {}", name, old.what, new.what);
                    let (check, impacts, text) = languages(
                        pick(check),
                        what,
                        (&clients, &servers),
                        &rule(ValueCheck::Range),
                    );
                    self.push(check, subject, impacts, text, at);
                }
                if a.format != b.format {
                    self.push(if body {
                            ChangeKind::BodyFieldDocChanged
                        } else {
                            ChangeKind::ParamFormatChanged
                        }, subject, DOCS, format!(
                            "integer `{}` is {} documented as Unix seconds: the integers accepted do not change",
                            name,
                            if b.format.is_some() { "now" } else { "no longer" }
                        ), at);
                }
            }
            (ValueType::String(a), ValueType::String(b)) => {
                // One change at a time: the format first, then the pattern.
                let step = ValueType::String(StringType {
                    pattern: a.pattern.clone(),
                    pattern_doc: None,
                    format: b.format,
                });
                if a.format != b.format {
                    let (old, mid) = (Lang::of_param(o.ty), Lang::of_param(&step));
                    let show = |f: Option<crate::model::StringFormat>| {
                        f.map_or("none".to_owned(), |f| format!("`{}`", format_name(f)))
                    };
                    let what = format!(
                        "format of `{}` {} became {}",
                        name,
                        show(a.format),
                        show(b.format)
                    );
                    let (check, impacts, text) = languages(
                        pick(ChangeKind::ParamFormatChanged),
                        what,
                        (&old.included_in(&mid), &mid.included_in(&old)),
                        &rule(ValueCheck::Format),
                    );
                    self.push(check, subject, impacts, text, at);
                }
                let regex = |t: &StringType| t.pattern.as_ref().map(|p| p.source().to_owned());
                if regex(a) != regex(b) {
                    let (mid, new) = (Lang::of_param(&step), Lang::of_param(q.ty));
                    let show =
                        |p: Option<String>| p.map_or("none".to_owned(), |p| format!("`{p}`"));
                    let what = format!(
                        "pattern of `{}` {} became {}",
                        name,
                        show(regex(a)),
                        show(regex(b))
                    );
                    let (check, impacts, text) = languages(
                        pick(ChangeKind::ParamPatternChanged),
                        what,
                        (&mid.included_in(&new), &new.included_in(&mid)),
                        &rule(ValueCheck::Pattern),
                    );
                    self.push(check, subject, impacts, text, at);
                }
            }
            (ValueType::Boolean, ValueType::Boolean) => {}
            // The same value set: its values are compared at the value set.
            (ValueType::Enum(a), ValueType::Enum(b)) if a.name == b.name => {}
            (x, y) => {
                let (old, new) = (Lang::of_param(x), Lang::of_param(y));
                let what = format!("type of `{}` {} became {}", name, kind(x), kind(y));
                let check = if matches!(y, ValueType::Enum(_)) {
                    ValueCheck::Values
                } else {
                    ValueCheck::Type
                };
                let (check, impacts, text) = languages(
                    pick(ChangeKind::ParamTypeChanged),
                    what,
                    (&old.included_in(&new), &new.included_in(&old)),
                    &rule(check),
                );
                self.push(check, subject, impacts, text, at);
            }
        }
    }
}

/// The check a change of the values a body field accepts is reported as, from whether old
/// clients' values are accepted by new servers (`clients`) and new clients' by old servers.
fn constraint_check(clients: bool, servers: bool) -> ChangeKind {
    match (clients, servers) {
        (true, true) => ChangeKind::BodyFieldDocChanged,
        (true, false) => ChangeKind::BodyConstraintRelaxed,
        (false, true) => ChangeKind::BodyConstraintTightened,
        (false, false) => ChangeKind::BodyConstraintChanged,
    }
}

/// A change of the texts a parameter accepts: `clients` says whether everything old clients
/// send is accepted by new servers, `servers` whether everything new clients send is accepted
/// by old servers. The check reported (`check` picks it from the two), its impacts and why.
fn languages(
    check: impl Fn(bool, bool) -> ChangeKind,
    what: String,
    (clients, servers): (&Inclusion, &Inclusion),
    rule: &str,
) -> (ChangeKind, (Impact, Impact), String) {
    let check = check(clients.holds(), servers.holds());
    if clients.holds() && servers.holds() {
        return (check, DOCS, format!("{what}: both accept the same texts"));
    }
    let (ci, ctext) = side(clients, "old clients", "new servers", rule);
    let (si, stext) = side(servers, "new clients", "old servers", rule);
    (check, (ci, si), format!("{what}: {ctext}; {stext}"))
}

/// How one direction fares, and why.
fn side(inclusion: &Inclusion, senders: &str, receivers: &str, rule: &str) -> (Impact, String) {
    match inclusion {
        Inclusion::Yes => (
            Impact::Compatible,
            format!("{receivers} accept everything {senders} send"),
        ),
        Inclusion::No(w) => (
            Impact::Breaking,
            format!("{senders} may send {w:?}, which {receivers} reject ({rule})"),
        ),
        Inclusion::Unknown(why) => (
            Impact::Breaking,
            format!(
                "whether {receivers} accept everything {senders} send cannot be decided, so it counts as breaking: {why}"
            ),
        ),
    }
}

fn location(l: ParamLocation) -> &'static str {
    match l {
        ParamLocation::Query => "query",
        ParamLocation::Path => "path",
    }
}

fn pattern_doc(p: &Param) -> Option<&str> {
    match &p.ty {
        ValueType::String(t) => t.pattern_doc.as_deref(),
        _ => None,
    }
}
