//! How an endpoint lists its answer: the documented ordering and the paging parameters.

use crate::ast::{self, ParamLocation, Spanned};
use crate::check::{Cx, Def};
use crate::model::{FieldId, Order, Paging, Param, Record, ValueType};

use super::Scope;

impl Cx<'_> {
    /// The documented ordering: a field of the returned record, and a direction parameter of a
    /// value set `asc`/`desc`.
    pub(super) fn order(
        &mut self,
        scope: &Scope<'_>,
        order: &Spanned<ast::EndpointOrder>,
        record: Option<(&Record, Def<'_, ast::Record>)>,
    ) -> Option<Order> {
        let before = self.errors.len();
        let id = scope.id;
        let field = record.and_then(|(record, def)| {
            let found = record.fields.iter().position(|f| f.wire == *order.field);
            // A declared field that did not check is reported already.
            if found.is_none() && !def.fields.iter().any(|f| f.name == order.field) {
                let d = self.err(
                    order.field.at(),
                    format!("`order.field` names `{}`, which the record endpoint `{id}` returns does not have", order.field),
                );
                Self::suggest(d, &order.field, record.fields.iter().map(|f| f.wire.as_str()));
            }
            found.map(FieldId::new)
        });
        let direction = order.direction.as_ref().and_then(|direction| {
            match scope.inputs.params.iter().find(|p| p.wire == **direction) {
                Some(Param {
                    ty: ValueType::Enum(e),
                    id,
                    list: None,
                    ..
                }) if e.values.len() == 2 && e.values.iter().all(|v| v == "asc" || v == "desc") => {
                    Some(*id)
                }
                Some(_) => {
                    let d = self.err(direction.at(), format!("`order.direction` names `{direction}`, which is not of a value set of `asc` and `desc`"));
                    Self::hint(d, "the direction parameter takes `asc` or `desc`");
                    None
                }
                None => {
                    if !scope.declared.iter().any(|p| p.name == *direction) {
                        self.err(direction.at(), format!("`order.direction` names `{direction}`, which endpoint `{id}` does not have"));
                    }
                    None
                }
            }
        });
        if self.errors.len() != before {
            return None;
        }
        Some(Order {
            at: self.loc(order.at()),
            field: field?,
            descending: order.descending,
            direction,
        })
    }

    /// The paging parameters: integer query parameters that always have a value, the page
    /// size at least 1 and the offset at least 0.
    pub(super) fn paging(
        &mut self,
        scope: &Scope<'_>,
        paging: &Spanned<ast::Paging>,
    ) -> Option<Paging> {
        let before = self.errors.len();
        let Scope {
            id,
            declared,
            inputs,
            ..
        } = *scope;
        let params = inputs.params;
        let check = |cx: &mut Self, key: &str, name: &Spanned<String>, least: i64| {
            let at = name.at();
            let Some(p) = params.iter().find(|p| p.wire == **name) else {
                if !declared.iter().any(|p| p.name == *name) {
                    let d = cx.err(
                        at,
                        format!(
                            "`paging.{key}` names `{name}`, which endpoint `{id}` does not have"
                        ),
                    );
                    Self::suggest(d, name, declared.iter().map(|p| p.name.as_str()));
                }
                return;
            };
            let min = match &p.ty {
                ValueType::Integer(t) if p.location == ParamLocation::Query && p.list.is_none() => {
                    t.min
                }
                _ => {
                    cx.err(
                        at,
                        format!(
                            "`paging.{key}` names `{name}`, which is not an integer query parameter"
                        ),
                    );
                    return;
                }
            };
            if min.is_none_or(|m| m < least) {
                let d = cx.err(
                    at,
                    format!("`paging.{key}` names `{name}`, whose values may be below {least}"),
                );
                Self::hint(d, format!("give `{name}` `min: {least}` or more"));
            }
            if key == "offset" && !p.always() {
                let d = cx.err(
                    at,
                    format!("`paging.offset` names `{name}`, which has no value when absent"),
                );
                Self::hint(d, format!("give `{name}` a default, such as `default: 0`"));
            }
        };
        check(self, "limit", &paging.limit, 1);
        if let Some(offset) = &paging.offset {
            if *offset == paging.limit {
                self.err(offset.at(), "`paging` names the same parameter twice");
            }
            check(self, "offset", offset, 0);
            if let Some(limit) = params.iter().find(|p| p.wire == *paging.limit)
                && !limit.always()
            {
                let d = self.err(paging.limit.at(), format!("`paging.limit` names `{}`, which has no value when absent, so the pages have no size", paging.limit));
                Self::hint(d, format!("give `{}` a default", paging.limit));
            }
        }
        if self.errors.len() != before {
            return None;
        }
        let id_of = |name: &Spanned<String>| params.iter().find(|p| p.wire == **name).map(|p| p.id);
        Some(Paging {
            at: self.loc(paging.at()),
            limit: id_of(&paging.limit)?,
            offset: match &paging.offset {
                Some(offset) => Some(id_of(offset)?),
                None => None,
            },
        })
    }
}
