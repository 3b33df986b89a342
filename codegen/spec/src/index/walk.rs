//! The names of the AST, each at its node's place: definitions first gathered from every
//! file (so a reference knows what kind of thing a name is: a record, a value set, a scalar),
//! then every place that names something.

use std::collections::BTreeMap;

use super::{Occurrence, Role, Symbol};
use crate::ast::{self, OperandName, Spanned, Value, ValueKind};
use crate::diag::Span;
use crate::load::LoadedFile;

/// An occurrence whose name starts `offset` characters into its node (a path's placeholder,
/// the field of `body.<field>`); the place is settled once the node's quotes are known.
pub(super) struct Raw {
    pub(super) occurrence: Occurrence,
    pub(super) offset: u32,
}

/// What the files define, by name: enough to tell what a name refers to.
#[derive(Default)]
struct Defined<'a> {
    /// Record name to its fields (wire name to type name).
    records: BTreeMap<&'a str, BTreeMap<&'a str, &'a str>>,
    value_sets: BTreeMap<&'a str, ()>,
    endpoints: BTreeMap<&'a str, &'a ast::Endpoint>,
}

impl Defined<'_> {
    /// The value set a parameter of `endpoint` is of.
    fn param_set(&self, endpoint: &str, param: &str) -> Option<String> {
        let ep = self.endpoints.get(endpoint)?;
        let p = ep.params.iter().find(|p| p.name.item == param)?;
        self.value_sets
            .contains_key(p.ty.as_str())
            .then(|| p.ty.item.clone())
    }

    /// The type name of a field of `record`.
    fn field_type(&self, record: &str, field: &str) -> Option<&str> {
        self.records.get(record)?.get(field).copied()
    }

    fn returns(&self, endpoint: &str) -> Option<&str> {
        self.endpoints.get(endpoint).map(|e| e.returns.as_str())
    }

    fn body(&self, endpoint: &str) -> Option<&str> {
        self.endpoints
            .get(endpoint)
            .and_then(|e| e.body.as_ref())
            .map(|b| b.as_str())
    }
}

/// Every name of `files` at its node.
pub(super) fn walk(files: &[LoadedFile]) -> Vec<Raw> {
    let mut d = Defined::default();
    for f in files {
        for (name, r) in &f.ast.records {
            let fields = r
                .fields
                .iter()
                .map(|f| (f.name.as_str(), f.ty.as_str()))
                .collect();
            d.records.insert(name, fields);
        }
        for name in f.ast.value_sets.keys() {
            d.value_sets.insert(name, ());
        }
        for (name, e) in &f.ast.endpoints {
            d.endpoints.insert(name, e);
        }
    }
    let mut w = Walker {
        d: &d,
        out: Vec::new(),
    };
    for f in files {
        w.file(f);
    }
    w.out
}

struct Walker<'a> {
    d: &'a Defined<'a>,
    out: Vec<Raw>,
}

fn chars(text: &str) -> u32 {
    u32::try_from(text.chars().count()).unwrap_or(u32::MAX)
}

impl Walker<'_> {
    fn push(&mut self, span: Span, offset: u32, len: u32, symbol: Symbol, role: Role) {
        self.out.push(Raw {
            occurrence: Occurrence {
                span,
                len,
                symbol,
                role,
            },
            offset,
        });
    }

    fn name(&mut self, span: Span, name: &str, symbol: Symbol, role: Role) {
        self.push(span, 0, chars(name), symbol, role);
    }

    /// A type name: a record or a value set (a scalar type names nothing).
    fn type_ref(&mut self, ty: &Spanned<String>) {
        let symbol = if self.d.records.contains_key(ty.as_str()) {
            Symbol::Record(ty.item.clone())
        } else if self.d.value_sets.contains_key(ty.as_str()) {
            Symbol::ValueSet(ty.item.clone())
        } else {
            return;
        };
        self.name(ty.at(), ty, symbol, Role::Reference);
    }

    fn record_ref(&mut self, name: &Spanned<String>) {
        let symbol = Symbol::Record(name.item.clone());
        self.name(name.at(), name, symbol, Role::Reference);
    }

    fn param_ref(&mut self, endpoint: &str, span: Span, name: &str) {
        let symbol = Symbol::Param {
            endpoint: endpoint.to_owned(),
            param: name.to_owned(),
        };
        self.name(span, name, symbol, Role::Reference);
    }

    fn field_ref(&mut self, record: Option<&str>, span: Span, offset: u32, name: &str) {
        if let Some(record) = record {
            let symbol = Symbol::Field {
                record: record.to_owned(),
                field: name.to_owned(),
            };
            self.push(span, offset, chars(name), symbol, Role::Reference);
        }
    }

    fn value_ref(&mut self, set: Option<&str>, span: Span, value: &str) {
        if let Some(set) = set {
            let symbol = Symbol::Value {
                set: set.to_owned(),
                value: value.to_owned(),
            };
            self.name(span, value, symbol, Role::Reference);
        }
    }

    /// A parameter or `body.<field>` of `endpoint`, named at `span`.
    fn operand(&mut self, endpoint: &str, span: Span, name: &OperandName) {
        match name {
            OperandName::Param(p) => self.param_ref(endpoint, span, p),
            OperandName::Field(f) => {
                let body = self.d.body(endpoint);
                let offset = chars(ast::BODY) + 1;
                self.field_ref(body, span, offset, f);
            }
        }
    }

    /// The value set of an operand, when it is of one.
    fn operand_set(&self, endpoint: &str, name: &OperandName) -> Option<String> {
        match name {
            OperandName::Param(p) => self.d.param_set(endpoint, p),
            OperandName::Field(f) => {
                let ty = self.d.field_type(self.d.body(endpoint)?, f)?;
                self.d.value_sets.contains_key(ty).then(|| ty.to_owned())
            }
        }
    }

    fn file(&mut self, f: &LoadedFile) {
        let ast = &f.ast;
        if let Some(service) = &ast.service {
            for field in service.envelope.fields.iter() {
                self.type_ref(&field.ty);
            }
        }
        for (name, r) in &ast.records {
            self.name(
                r.key_at(),
                name,
                Symbol::Record(name.clone()),
                Role::Definition,
            );
            for field in r.fields.iter() {
                let symbol = Symbol::Field {
                    record: name.clone(),
                    field: field.name.item.clone(),
                };
                self.name(field.name.at(), &field.name, symbol, Role::Definition);
                self.type_ref(&field.ty);
            }
        }
        for (name, set) in &ast.value_sets {
            self.name(
                set.key_at(),
                name,
                Symbol::ValueSet(name.clone()),
                Role::Definition,
            );
            for v in set.values.iter() {
                let symbol = Symbol::Value {
                    set: name.clone(),
                    value: v.value.item.clone(),
                };
                self.name(v.value.at(), &v.value, symbol, Role::Definition);
            }
        }
        for (name, e) in &ast.endpoints {
            self.endpoint(name, e);
        }
        for h in &ast.history {
            self.history(h);
        }
        for (name, s) in &ast.samples {
            self.samples(name, s);
        }
    }

    fn endpoint(&mut self, id: &str, e: &Spanned<ast::Endpoint>) {
        self.name(
            e.key_at(),
            id,
            Symbol::Endpoint(id.to_owned()),
            Role::Definition,
        );
        self.record_ref(&e.returns);
        if let Some(body) = &e.body {
            self.record_ref(body);
        }
        for p in &e.params {
            let symbol = Symbol::Param {
                endpoint: id.to_owned(),
                param: p.name.item.clone(),
            };
            self.name(p.name.at(), &p.name, symbol, Role::Definition);
            self.type_ref(&p.ty);
            if let Some(default) = &p.default {
                let set = self.d.param_set(id, &p.name);
                self.values(set.as_deref(), default);
            }
        }
        // `{name}` segments of the path.
        let mut offset = 0u32;
        for (i, part) in e.path.split('{').enumerate() {
            if let Some(end) = part.find('}').filter(|_| i > 0) {
                let name = &part[..end];
                let symbol = Symbol::Param {
                    endpoint: id.to_owned(),
                    param: name.to_owned(),
                };
                self.push(e.path.at(), offset, chars(name), symbol, Role::Reference);
            }
            offset += chars(part) + 1;
        }
        if let Some(lookup) = &e.lookup {
            self.param_ref(id, lookup.at(), lookup);
        }
        if let Some(paging) = &e.paging {
            self.param_ref(id, paging.limit.at(), &paging.limit);
            if let Some(offset) = &paging.offset {
                self.param_ref(id, offset.at(), offset);
            }
        }
        if let Some(order) = &e.order {
            self.field_ref(self.d.returns(id), order.field.at(), 0, &order.field);
            if let Some(direction) = &order.direction {
                self.param_ref(id, direction.at(), direction);
            }
        }
        for rule in &e.rules {
            self.rule(id, rule);
        }
    }

    fn rule(&mut self, endpoint: &str, rule: &ast::Rule) {
        if rule
            .id
            .strip_prefix(endpoint)
            .is_some_and(|rest| rest.starts_with('.'))
        {
            let symbol = Symbol::Endpoint(endpoint.to_owned());
            self.name(rule.id.at(), endpoint, symbol, Role::Reference);
        }
        if let Some(when) = &rule.when {
            self.operand(endpoint, when.param.at(), &when.param);
            if let Some(one_of) = &when.one_of {
                let set = self.operand_set(endpoint, &when.param);
                for v in one_of.iter() {
                    self.value_ref(set.as_deref(), v.at(), v);
                }
            }
        }
        for (_, _, requirement) in rule.checks() {
            match requirement {
                ast::Requirement::Ordered(o) => {
                    self.operand(endpoint, o.before.at(), &o.before);
                    self.operand(endpoint, o.after.at(), &o.after);
                }
                ast::Requirement::MaxSpan(m) => {
                    self.operand(endpoint, m.from.at(), &m.from);
                    self.operand(endpoint, m.to.at(), &m.to);
                }
                ast::Requirement::Requires(r) => {
                    self.operand(endpoint, r.param.at(), &r.param);
                    self.operand(endpoint, r.needs.at(), &r.needs);
                }
                ast::Requirement::AtLeastOne(names) => {
                    for n in names.iter() {
                        self.operand(endpoint, n.at(), n);
                    }
                }
                ast::Requirement::AllowedValues(a) => {
                    self.operand(endpoint, a.param.at(), &a.param);
                    let set = self.operand_set(endpoint, &a.param);
                    for v in a.values.iter() {
                        self.value_ref(set.as_deref(), v.at(), v);
                    }
                }
                ast::Requirement::Matches(m) => {
                    self.operand(endpoint, m.param.at(), &m.param);
                }
            }
        }
    }

    fn history(&mut self, h: &ast::HistoryEntry) {
        for change in &h.changes {
            let found = self.d.endpoints.iter().find(|(_, e)| {
                e.path.item == change.path.item && e.method.item == change.method.item
            });
            if let Some((id, _)) = found {
                let symbol = Symbol::Endpoint((*id).to_owned());
                let len = chars(&change.path);
                self.push(change.path.at(), 0, len, symbol, Role::Mention);
            }
        }
        for name in &h.breaking {
            self.subject(name);
        }
    }

    /// A `breaking:` name that is a subject of spec-diff (`endpoint`, `endpoint.param`,
    /// `Record`, `Record.field`, `ValueSet`, `ValueSet.value`); a check id names nothing.
    fn subject(&mut self, name: &Spanned<String>) {
        let (head, tail) = match name.split_once('.') {
            Some((h, t)) => (h, Some(t)),
            None => (name.as_str(), None),
        };
        let head_symbol = if self.d.endpoints.contains_key(head) {
            Symbol::Endpoint(head.to_owned())
        } else if self.d.records.contains_key(head) {
            Symbol::Record(head.to_owned())
        } else if self.d.value_sets.contains_key(head) {
            Symbol::ValueSet(head.to_owned())
        } else {
            return;
        };
        self.name(name.at(), head, head_symbol.clone(), Role::Reference);
        let Some(tail) = tail else { return };
        let offset = chars(head) + 1;
        let symbol = match head_symbol {
            Symbol::Endpoint(endpoint) => Symbol::Param {
                endpoint,
                param: tail.to_owned(),
            },
            Symbol::Record(record) => Symbol::Field {
                record,
                field: tail.to_owned(),
            },
            Symbol::ValueSet(set) => Symbol::Value {
                set,
                value: tail.to_owned(),
            },
            _ => return,
        };
        self.push(name.at(), offset, chars(tail), symbol, Role::Reference);
    }

    fn samples(&mut self, endpoint: &str, s: &Spanned<ast::Samples>) {
        let symbol = Symbol::Endpoint(endpoint.to_owned());
        self.name(s.key_at(), endpoint, symbol, Role::Reference);
        let returns = self.d.returns(endpoint).map(str::to_owned);
        let returns = returns.as_deref();
        // The names of the example's query (`?symbol=AAPL&limit=2`).
        if let Some(example) = &s.example
            && let Some((path, query)) = example.split_once('?')
        {
            let mut offset = chars(path) + 1;
            for pair in query.split('&') {
                let name = pair.split_once('=').map_or(pair, |(n, _)| n);
                // The values of a parameter of a value set (a list's separated by commas).
                if let Some((_, value)) = pair.split_once('=')
                    && let Some(set) = self.d.param_set(endpoint, name)
                {
                    let mut at = offset + chars(name) + 1;
                    for v in value.split(',') {
                        let symbol = Symbol::Value {
                            set: set.clone(),
                            value: v.to_owned(),
                        };
                        self.push(example.at(), at, chars(v), symbol, Role::Reference);
                        at += chars(v) + 1;
                    }
                }
                let declared = self
                    .d
                    .endpoints
                    .get(endpoint)
                    .is_some_and(|e| e.params.iter().any(|p| p.name.item == name));
                if declared {
                    let symbol = Symbol::Param {
                        endpoint: endpoint.to_owned(),
                        param: name.to_owned(),
                    };
                    self.push(example.at(), offset, chars(name), symbol, Role::Reference);
                }
                offset += chars(pair) + 1;
            }
        }
        for p in s
            .first_of
            .iter()
            .chain(&s.contains)
            .chain(&s.latest_without)
        {
            self.param_ref(endpoint, p.at(), p);
        }
        for (field, operand) in &s.echo {
            self.field_ref(returns, operand.key_at(), 0, field);
            self.operand(endpoint, operand.at(), operand);
        }
        for (operand, field) in &s.filter {
            self.operand(endpoint, field.key_at(), operand);
            self.field_ref(returns, field.at(), 0, field);
        }
        if let Some(range) = &s.range {
            for p in [&range.from, &range.to, &range.by].into_iter().flatten() {
                self.param_ref(endpoint, p.at(), p);
            }
            if let Some(field) = &range.field {
                self.field_ref(returns, field.at(), 0, field);
            }
            if let Some(fields) = &range.fields {
                let set = range
                    .by
                    .as_ref()
                    .and_then(|by| self.d.param_set(endpoint, by));
                for (value, field) in fields.iter() {
                    self.value_ref(set.as_deref(), field.key_at(), value);
                    self.field_ref(returns, field.at(), 0, field);
                }
            }
        }
        if let Some(order) = &s.order {
            if let Some(field) = &order.field {
                self.field_ref(returns, field.at(), 0, field);
            }
            if let Some(by) = &order.by {
                self.param_ref(endpoint, by.at(), by);
            }
        }
        for set in s.sets.iter().flat_map(|sets| sets.iter()) {
            for (operand, spellings) in &set.when {
                self.operand(endpoint, spellings.key_at(), operand);
                let value_set = self.operand_set(endpoint, operand);
                for v in spellings.iter() {
                    self.value_ref(value_set.as_deref(), v.at(), v);
                }
            }
            for record in &set.records {
                self.sample_record(returns, record, 0);
            }
        }
    }

    /// The field names of a sample record of `record`, and the values of value sets in it.
    fn sample_record(&mut self, record: Option<&str>, value: &Value, depth: usize) {
        // Records nest as deep as the YAML, which the loader bounds; the bound here keeps a
        // record that contains itself from being followed further than any sample goes.
        if depth > crate::yaml::MAX_DEPTH {
            return;
        }
        let Some(record) = record else { return };
        let ValueKind::Map(entries) = &value.item else {
            return;
        };
        for (key, v) in entries {
            let Some(name) = key.as_str() else { continue };
            self.field_ref(Some(record), key.at(), 0, name);
            let Some(ty) = self.d.field_type(record, name) else {
                continue;
            };
            if self.d.records.contains_key(ty) {
                let ty = ty.to_owned();
                match &v.item {
                    ValueKind::Seq(items) => {
                        for item in items {
                            self.sample_record(Some(&ty), item, depth + 1);
                        }
                    }
                    _ => self.sample_record(Some(&ty), v, depth + 1),
                }
            } else if self.d.value_sets.contains_key(ty) {
                let ty = ty.to_owned();
                self.values(Some(&ty), v);
            }
        }
    }

    /// The values of value set `set` in a value (a text, or a list of them).
    fn values(&mut self, set: Option<&str>, value: &Value) {
        match &value.item {
            ValueKind::String(text) => self.value_ref(set, value.at(), text),
            ValueKind::Seq(items) => {
                for item in items {
                    if let Some(text) = item.as_str() {
                        self.value_ref(set, item.at(), text);
                    }
                }
            }
            _ => {}
        }
    }
}
