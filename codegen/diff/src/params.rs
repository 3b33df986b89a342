//! Parameters of one endpoint: added, removed (a rename is both), required or not, defaults,
//! location, type, format, range and pattern.
//!
//! Query parameters are matched by name; path parameters by position when the path keeps its
//! shape (their names are not on the wire). Whatever constrains a value (type, range, format,
//! pattern) is compared as the language of texts it accepts ([`super::lang`]): old clients
//! break when they may send a text new servers reject, old servers when new clients may.

use super::checks::{Classified, kind};
use super::lang::Lang;
use super::{Diff, Impact, Impacts, Places, Sides, changed_parts};
use mrds_spec::model::{
    Endpoint, Inclusion, Input, ListForm, ListStyle, Operand, Param, ParamLocation, Place,
    StringType, ValueCheck, ValueType,
};

/// `string`, `integer`, `boolean` or `value set X`.
fn type_word(ty: &ValueType) -> String {
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
                    self.param(Sides { old: o, new: n }, Sides { old: p, new: q });
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
                self.push(kind::ParamRemovedRequired, subject, format!(
                        "required parameter `{}` is gone{hint}: new servers ignore it from old clients; new clients leave it out and old servers reject their requests ({})",
                        p.wire,
                        o.param_rule(p, ValueCheck::Required)
                    ), Places { old: Some(&p.at), new: Some(&n.at) });
            } else {
                self.push(kind::ParamRemovedOptional, subject, format!(
                        "optional parameter `{}` is gone{hint}: new servers ignore it, so old clients that send it get answers it does not shape; new clients leave it out",
                        p.wire
                    ), Places { old: Some(&p.at), new: Some(&n.at) });
            }
        }
        for q in &fresh {
            let subject = format!("{}.{}", n.id, q.wire);
            let hint = rename_hint(q, &gone, false);
            if q.required {
                self.push(kind::ParamAddedRequired, subject, format!(
                        "new required {} parameter `{}`{hint}: old clients do not send it and new servers reject their requests ({}); old servers ignore it",
                        type_word(&q.ty),
                        q.wire,
                        n.param_rule(q, ValueCheck::Required)
                    ), Places { old: Some(&o.at), new: Some(&q.at) });
            } else {
                let default = q
                    .default
                    .as_ref()
                    .map_or("without a default".to_owned(), |d| {
                        format!("with default `{}`", d.wire())
                    });
                self.push(kind::ParamAddedOptional, subject, format!(
                        "new optional {} parameter `{}` {default}{hint}: old clients leave it out; old servers ignore it, so new clients that send it get answers it does not shape",
                        type_word(&q.ty),
                        q.wire
                    ), Places { old: Some(&o.at), new: Some(&q.at) });
            }
        }
    }

    /// One parameter on both sides.
    fn param(&mut self, endpoints: Sides<&Endpoint>, params: Sides<&Param>) {
        let (Sides { old: e_old, new: n }, Sides { old: o, new: q }) = (endpoints, params);
        let subject = format!("{}.{}", n.id, q.wire);
        let at = Places {
            old: Some(&o.at),
            new: Some(&q.at),
        };
        if o.location != q.location {
            self.push(kind::ParamLocationChanged, &subject, format!(
                    "`{}` travels in the {} instead of the {}: neither side finds it where the other puts it",
                    q.wire,
                    location(q.location),
                    location(o.location)
                ), at);
        } else if o.wire != q.wire {
            self.push(kind::ParamPathRenamed, &subject, format!(
                    "path parameter `{}` is called `{}`: its place in the path is unchanged and its name is not on the wire",
                    o.wire, q.wire
                ), at);
        }
        match (o.required, q.required) {
            (false, true) => self.push(kind::ParamNowRequired, &subject, format!(
                    "`{}` became required: old clients may leave it out and new servers reject that ({}); new clients always send it",
                    q.wire,
                    n.param_rule(q, ValueCheck::Required)
                ), at),
            (true, false) => self.push(kind::ParamNowOptional, &subject, format!(
                    "`{}` became optional: old clients still send it; new clients may leave it out and old servers reject that ({}.{}.required)",
                    q.wire, n.id, o.wire
                ), at),
            (false, false) if o.default != q.default => {
                let show = |p: &Param| {
                    p.default
                        .as_ref()
                        .map_or("none".to_owned(), |d| format!("`{}`", d.wire()))
                };
                self.push(kind::ParamDefaultChanged, &subject, format!(
                        "default of `{}` {} became {}: a request leaving it out means one thing to old servers and another to new ones (generated clients send their default explicitly and are not affected)",
                        q.wire,
                        show(o),
                        show(q)
                    ), at);
            }
            _ => {}
        }
        self.param_list(&subject, Sides { old: o, new: q }, at);
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
                kind::ParamDocChanged,
                &subject,
                format!("the {parts} of `{}` changed", q.wire),
                at,
            );
        }
    }

    /// A list on both sides: how it travels and how many items it takes (its items are
    /// compared as any value is); or a single value become a list, or a list a single value.
    fn param_list(&mut self, subject: &str, params: Sides<&Param>, at: Places<'_>) {
        let (o, q) = (params.old, params.new);
        match (&o.list, &q.list) {
            (None, None) => {}
            (Some(a), Some(b)) => {
                if a.style != b.style {
                    self.push(kind::ParamListStyleChanged, subject, format!(
                        "list `{}` travels {} instead of {}: a list of two items sent one way is one item, or refused, the other way",
                        q.wire,
                        style_text(b.style),
                        style_text(a.style)
                    ), at);
                }
                if (a.min_items, a.max_items) != (b.min_items, b.max_items) {
                    // The numbers of items each side takes: from 1 (none is not given) up.
                    let span = |l: &ListForm| {
                        (
                            l.min_items.unwrap_or(1).max(1),
                            l.max_items.unwrap_or(i64::MAX),
                        )
                    };
                    let (old, new) = (span(a), span(b));
                    let within = |x: (i64, i64), y: (i64, i64)| y.0 <= x.0 && x.1 <= y.1;
                    let (clients, servers) = (within(old, new), within(new, old));
                    let kind = match (clients, servers) {
                        (true, true) => kind::ParamDocChanged,
                        (true, false) => kind::ParamItemsWidened,
                        (false, true) => kind::ParamItemsNarrowed,
                        (false, false) => kind::ParamItemsChanged,
                    };
                    let show = |l: &ListForm| {
                        let reason = mrds_runtime::items_reason(l.min_items, l.max_items);
                        match reason.strip_prefix("must have ") {
                            Some(items) => items.to_owned(),
                            None => "any number of items".to_owned(),
                        }
                    };
                    self.push(
                        kind,
                        subject,
                        format!(
                            "list `{}` took {} and takes {}: {}; {}",
                            q.wire,
                            show(a),
                            show(b),
                            if clients {
                                "new servers take every list old clients send"
                            } else {
                                "old clients may send a list new servers refuse"
                            },
                            if servers {
                                "old servers take every list new clients send"
                            } else {
                                "new clients may send a list old servers refuse"
                            },
                        ),
                        at,
                    );
                }
            }
            (_, b) => {
                let became = if b.is_some() {
                    "became a list"
                } else {
                    "is no longer a list"
                };
                let kind = kind::ParamTypeChanged.decided(Impacts {
                    clients: Impact::Breaking,
                    servers: Impact::Breaking,
                });
                self.push(kind, subject, format!(
                    "`{}` {became}: its Rust type changes, and a list of two items is one value, or refused, to the other side",
                    q.wire
                ), at);
            }
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
        let at = Places {
            old: Some(o.at),
            new: Some(q.at),
        };
        let name = q.name();
        let rule = |check: ValueCheck| n.value_rule(&name, check);
        // A body field's change is the `body.*` constraint kind that follows from whether each
        // side accepts what the other sends; a parameter's names what changed.
        let body = q.place == Place::Body;
        match (o.ty, q.ty) {
            (ValueType::Integer(a), ValueType::Integer(b)) => {
                if (a.min, a.max) != (b.min, b.max) {
                    let (old, new) = (Lang::of_param(o.ty), Lang::of_param(q.ty));
                    let (clients, servers) = (old.included_in(&new), new.included_in(&old));
                    let what = format!("range of `{}` {} became {}", name, old.what, new.what);
                    let (_, text) = languages(what, &clients, &servers, &rule(ValueCheck::Range));
                    let kind = if body {
                        body_constraint(&clients, &servers)
                    } else {
                        param_range(&clients, &servers)
                    };
                    self.push(kind, subject, text, at);
                }
                if a.format != b.format {
                    let kind = if body {
                        kind::BodyFieldDocChanged
                    } else {
                        kind::ParamFormatChanged.decided(Impacts {
                            clients: Impact::Documentation,
                            servers: Impact::Documentation,
                        })
                    };
                    self.push(kind, subject, format!(
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
                    let (clients, servers) = (old.included_in(&mid), mid.included_in(&old));
                    let show = |f: Option<mrds_spec::model::TextFormat>| {
                        f.map_or("none".to_owned(), |f| format!("`{}`", f.name()))
                    };
                    let what = format!(
                        "format of `{}` {} became {}",
                        name,
                        show(a.format),
                        show(b.format)
                    );
                    let (impacts, text) =
                        languages(what, &clients, &servers, &rule(ValueCheck::Format));
                    let kind = if body {
                        body_constraint(&clients, &servers)
                    } else {
                        kind::ParamFormatChanged.decided(impacts)
                    };
                    self.push(kind, subject, text, at);
                }
                let regex = |t: &StringType| t.pattern.as_ref().map(|p| p.source().to_owned());
                if regex(a) != regex(b) {
                    let (mid, new) = (Lang::of_param(&step), Lang::of_param(q.ty));
                    let (clients, servers) = (mid.included_in(&new), new.included_in(&mid));
                    let show =
                        |p: Option<String>| p.map_or("none".to_owned(), |p| format!("`{p}`"));
                    let what = format!(
                        "pattern of `{}` {} became {}",
                        name,
                        show(regex(a)),
                        show(regex(b))
                    );
                    let (impacts, text) =
                        languages(what, &clients, &servers, &rule(ValueCheck::Pattern));
                    let kind = if body {
                        body_constraint(&clients, &servers)
                    } else {
                        kind::ParamPatternChanged.decided(impacts)
                    };
                    self.push(kind, subject, text, at);
                }
            }
            (ValueType::Boolean, ValueType::Boolean) => {}
            // The same value set: its values are compared at the value set.
            (ValueType::Enum(a), ValueType::Enum(b)) if a.name == b.name => {}
            (x, y) => {
                let (old, new) = (Lang::of_param(x), Lang::of_param(y));
                let (clients, servers) = (old.included_in(&new), new.included_in(&old));
                let what = format!(
                    "type of `{}` {} became {}",
                    name,
                    type_word(x),
                    type_word(y)
                );
                let check = if matches!(y, ValueType::Enum(_)) {
                    ValueCheck::Values
                } else {
                    ValueCheck::Type
                };
                let (impacts, text) = languages(what, &clients, &servers, &rule(check));
                let kind = if body {
                    body_constraint(&clients, &servers)
                } else {
                    kind::ParamTypeChanged.decided(impacts)
                };
                self.push(kind, subject, text, at);
            }
        }
    }
}

/// The kind a change of the values a body field accepts is reported as, from whether new
/// servers accept everything old clients send (`clients`) and old servers everything new
/// clients send (`servers`); each of these kinds fixes the impacts that follow from that.
fn body_constraint(clients: &Inclusion, servers: &Inclusion) -> Classified {
    match (clients.holds(), servers.holds()) {
        (true, true) => kind::BodyFieldDocChanged,
        (true, false) => kind::BodyConstraintRelaxed,
        (false, true) => kind::BodyConstraintTightened,
        (false, false) => kind::BodyConstraintChanged,
    }
}

/// The kind a changed integer range of a parameter is reported as, as [`body_constraint`]
/// decides it for a body field.
fn param_range(clients: &Inclusion, servers: &Inclusion) -> Classified {
    match (clients.holds(), servers.holds()) {
        // The bounds are spelled otherwise, the integers are the same.
        (true, true) => kind::ParamDocChanged,
        (true, false) => kind::ParamRangeWidened,
        (false, true) => kind::ParamRangeNarrowed,
        (false, false) => kind::ParamRangeChanged,
    }
}

/// A change of the texts an input accepts: `clients` says whether everything old clients send
/// is accepted by new servers, `servers` whether everything new clients send is accepted by old
/// servers. The impacts that follow (documentation both ways when both hold), and why.
fn languages(
    what: String,
    clients: &Inclusion,
    servers: &Inclusion,
    rule: &str,
) -> (Impacts, String) {
    if clients.holds() && servers.holds() {
        let impacts = Impacts {
            clients: Impact::Documentation,
            servers: Impact::Documentation,
        };
        return (impacts, format!("{what}: both accept the same texts"));
    }
    let (ci, ctext) = side(clients, "old clients", "new servers", rule);
    let (si, stext) = side(servers, "new clients", "old servers", rule);
    let impacts = Impacts {
        clients: ci,
        servers: si,
    };
    (impacts, format!("{what}: {ctext}; {stext}"))
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

/// `comma-separated` or `repeated`.
fn style_text(style: ListStyle) -> &'static str {
    match style {
        ListStyle::Comma => "comma-separated (`name=a,b`)",
        ListStyle::Repeated => "repeated (`name=a&name=b`)",
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
