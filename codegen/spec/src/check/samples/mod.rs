//! Checking and lowering of the `samples:` sections: the sample-data server's records and how a
//! request selects from them. Every parameter and field they name must exist, and every sample
//! record must have the shape of the record its endpoint returns.
//!
//! This module checks a section as a whole; [`names`] resolves the parameters, body fields and
//! record fields it names, and [`records`] checks its sample records' shapes.

use std::collections::BTreeMap;

use crate::ast::{self, Spanned, ValueKind};
use crate::check::examples::example_values;
use crate::check::{Cx, Def, Target, Types};
use crate::diag::Span;
use crate::model::{Endpoint, ParamId, SampleField, SampleOrder, SampleRange, SampleSet, Samples};

mod names;
mod records;

impl<'a> Cx<'a> {
    /// Checks every `samples` section and attaches it to its endpoint.
    /// Samples of an endpoint that did not check cleanly are skipped: its own problems are
    /// reported already.
    pub(super) fn samples(
        &mut self,
        endpoints: &mut [Endpoint],
        declared: &BTreeMap<&str, Def<'_, ast::Endpoint>>,
        types: &Types<'_>,
    ) {
        let defs = self.merge("sample section", |f| &f.samples);
        for (id, def) in &defs {
            let Some(endpoint) = endpoints.iter_mut().find(|e| e.id == *id) else {
                if !declared.contains_key(id) {
                    let d = self.err(
                        def.key_at(),
                        format!("samples are given for `{id}`, which is not an endpoint"),
                    );
                    Self::suggest(d, id, declared.keys().copied());
                }
                continue;
            };
            let body = endpoint
                .body
                .as_ref()
                .map(|b| &types.records[b.record.index()]);
            let target = Target {
                ep: endpoint,
                record: &types.records[endpoint.returns.index()],
                declared: &declared[id].params,
                body,
                body_fields: body
                    .and_then(|r| types.record_defs.get(r.spec_name.as_str()))
                    .map_or(&[], |d| d.fields.as_slice()),
            };
            endpoint.samples = self.sample_section(def, &target, types);
        }
        // Every endpoint has samples, or says why not. Samples given under a name close to it
        // (reported above) count: one misspelt name is one error.
        let misspelt: Vec<&str> = defs
            .keys()
            .filter(|id| !declared.contains_key(*id))
            .filter_map(|id| crate::diag::closest(id, declared.keys().copied()))
            .collect();
        for (id, def) in declared {
            if !defs.contains_key(id) && !misspelt.contains(id) {
                let d = self.err(def.key_at(), format!("endpoint `{id}` has no samples"));
                Self::hint(
                    d,
                    format!(
                        "add `samples: {{ {id}: {{ example: ..., sets: [...] }} }}` (the sample server answers from them and the contract suite starts from the example), or say why there are none: `samples: {{ {id}: {{ none: \"<reason>\" }} }}`"
                    ),
                );
            }
        }
    }

    fn sample_section(
        &mut self,
        s: &Spanned<ast::Samples>,
        t: &Target<'_>,
        types: &Types<'_>,
    ) -> Option<Samples> {
        let (ep, record) = (t.ep, t.record);
        let before = self.errors.len();
        if s.none.is_some() {
            self.no_samples(s);
            return None;
        }
        let param = |cx: &mut Self, name: &Spanned<String>| {
            cx.sample_param(name.at(), t, name).map(|p| p.id)
        };
        let params = |cx: &mut Self, names: &[Spanned<String>]| -> Option<Vec<ParamId>> {
            let all: Vec<Option<ParamId>> = names.iter().map(|n| param(cx, n)).collect();
            all.into_iter().collect()
        };
        let field = |cx: &mut Self, at: Span, name: &str| cx.sample_field(at, record, name, types);

        let first_of = params(self, &s.first_of);
        let contains = params(self, &s.contains);
        let latest_without = params(self, &s.latest_without);
        let mut echo = Some(Vec::new());
        for (f, p) in &s.echo {
            let operand = self.sample_operand(p.at(), t, p).map(|i| i.operand);
            let pair = field(self, p.key_at(), f).zip(operand);
            echo = echo.zip(pair).map(|(mut all, pair)| {
                all.push(pair);
                all
            });
        }
        let mut filter = Some(Vec::new());
        for (p, f) in &s.filter {
            let p = self.sample_operand(f.key_at(), t, p).map(|i| i.operand);
            let pair = p.zip(field(self, f.at(), f));
            filter = filter.zip(pair).map(|(mut all, pair)| {
                all.push(pair);
                all
            });
        }

        let range = s.range.as_ref().and_then(|r| {
            let from = r.from.as_ref().map(|name| param(self, name));
            let to = r.to.as_ref().map(|name| param(self, name));
            if r.from.is_none() && r.to.is_none() {
                let d = self.err(r.at(), "a range needs `from`, `to` or both");
                Self::hint(d, "name the parameters holding the range's ends");
            }
            let field = self.sample_range_field(r, t, types);
            Some(SampleRange {
                from: from.map(|p| p.ok_or(())).transpose().ok()?,
                to: to.map(|p| p.ok_or(())).transpose().ok()?,
                field: field?,
            })
        });

        let order = s.order.as_ref().and_then(|o| {
            let by = o.by.as_ref().map(|by| param(self, by));
            let field = match (&o.field, &range) {
                (Some(f), _) => SampleField::Fixed(field(self, f.at(), f)?),
                (None, Some(r)) => r.field.clone(),
                // A range that did not check is reported already.
                (None, None) if s.range.is_some() => return None,
                (None, None) => {
                    let d = self.err(
                        o.at(),
                        "the order names no `field` and there is no range to take it from",
                    );
                    Self::hint(d, "add `field:` naming a field of the record");
                    return None;
                }
            };
            Some(SampleOrder {
                field,
                descending: o.descending,
                by: by.map(|p| p.ok_or(())).transpose().ok()?,
            })
        });
        // An order of their own agrees with the endpoint's documented one: else the sample
        // server answers the records in an order the endpoint does not promise.
        if let (Some(own), Some(documented), Some(o)) = (&order, &ep.order, &s.order) {
            self.sample_order_agrees(o.at(), own, documented, record);
        }
        // Without an order of their own, the samples keep the endpoint's documented one.
        let order = order.or_else(|| {
            ep.order.as_ref().map(|o| SampleOrder {
                field: SampleField::Fixed(o.field),
                descending: o.descending,
                by: o.direction,
            })
        });

        let empty = Vec::new();
        let declared_sets = s.sets.as_ref().map_or(&empty, |sets| &sets.item);
        if declared_sets.is_empty() {
            let at = s.sets.as_ref().map_or(s.key_at(), |sets| sets.at());
            let d = self.err(at, "samples need at least one set");
            Self::hint(d, "add `sets:` with `records:`");
        }
        let mut sets = Vec::new();
        for set in declared_sets {
            let mut when = Vec::new();
            for (name, spellings) in &set.when {
                if let Some(input) = self.sample_operand(spellings.key_at(), t, name) {
                    self.sample_spellings(&input, spellings);
                    when.push((
                        input.operand,
                        spellings.iter().map(|s| s.to_string()).collect(),
                    ));
                }
            }
            for value in &set.records {
                self.sample_record(value, record, types);
            }
            let records: Vec<&ValueKind> = set.records.iter().map(|r| &r.item).collect();
            let records_json = serde_json::to_string(&records).unwrap_or_else(|e| {
                self.err(
                    set.at(),
                    format!("the records cannot be written as JSON: {e}"),
                );
                String::new()
            });
            sets.push(SampleSet { when, records_json });
        }

        let before_body = self.errors.len();
        let example_body = self.example_body(s, t, types);
        // A body of the wrong shape is reported where it is written; its values are judged
        // with the example's parameters only once it has the record's shape.
        let shaped_body = s
            .example_body
            .as_ref()
            .filter(|_| self.errors.len() == before_body);
        let example = match &s.example {
            Some(example) => {
                self.sample_example(example, shaped_body, t);
                example.to_string()
            }
            None => {
                let d = self.err(s.key_at(), "samples need an `example` request");
                Self::hint(
                    d,
                    "add `example:` with a valid request of the endpoint, path and query",
                );
                String::new()
            }
        };

        if self.errors.len() != before {
            return None;
        }
        Some(Samples {
            at: self.loc(s.key_at()),
            example_body,
            example_values: example_values(ep, &example)?,
            example,
            not_found_when_missing: s.missing == ast::Missing::NotFound || ep.lookup.is_some(),
            first_of: first_of?,
            contains: contains?,
            echo: echo?,
            filter: filter?,
            range,
            order,
            latest_without: latest_without?,
            sets,
        })
    }

    /// A section that says why the endpoint has no samples holds nothing else.
    fn no_samples(&mut self, s: &ast::Samples) {
        let ast::Samples {
            none: _,
            example,
            example_body,
            missing: _,
            first_of,
            contains,
            echo,
            filter,
            range,
            order,
            latest_without,
            sets,
        } = s;
        let given = example.is_some()
            || example_body.is_some()
            || !first_of.is_empty()
            || !contains.is_empty()
            || !echo.is_empty()
            || !filter.is_empty()
            || range.is_some()
            || order.is_some()
            || !latest_without.is_empty()
            || sets.is_some();
        if given {
            let at = example
                .as_ref()
                .map(|e| e.key_at())
                .or(sets.as_ref().map(|s| s.key_at()))
                .or(first_of.first().map(|p| p.at()));
            if let Some(at) = at {
                let d = self.err(at, "a sample section with `none:` holds nothing else");
                Self::hint(d, "remove `none:` to give samples, or remove the samples");
            }
        }
    }

    /// Reports, at the samples' `order:` (`at`), an order of their own (`own`) that is not the
    /// endpoint's documented one: another field, another direction, or another parameter
    /// choosing it.
    fn sample_order_agrees(
        &mut self,
        at: Span,
        own: &SampleOrder,
        documented: &crate::model::Order,
        record: &crate::model::Record,
    ) {
        let field = |id: crate::model::FieldId| record.fields[id.index()].wire.as_str();
        let direction = |descending: bool| {
            if descending {
                "descending"
            } else {
                "ascending"
            }
        };
        let documented_text = format!(
            "`{}` {}",
            field(documented.field),
            direction(documented.descending)
        );
        let own_field = match &own.field {
            SampleField::Fixed(id) => Some(*id),
            SampleField::By(..) => None,
        };
        let differs = own_field.is_some_and(|f| f != documented.field)
            || own.descending != documented.descending
            || own.by != documented.direction;
        if differs {
            let own_text = match own_field {
                Some(f) => format!("`{}` {}", field(f), direction(own.descending)),
                None => format!("a field a parameter chooses, {}", direction(own.descending)),
            };
            let d = self.err(
                at,
                format!(
                    "the samples are ordered by {own_text}, but the endpoint documents its records ordered by {documented_text}"
                ),
            );
            Self::hint(
                d,
                "drop the samples' `order:` (they keep the endpoint's), or make it the endpoint's",
            );
        }
    }
}
