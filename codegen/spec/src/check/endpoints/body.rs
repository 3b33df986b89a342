//! The body of an endpoint: which methods send one, and the record it names.

use crate::ast;
use crate::check::{Cx, Types};
use crate::model::{Location, Record};

impl Cx<'_> {
    /// The body of endpoint `id`: a POST, PUT or PATCH names one, a GET or DELETE none; a record is the body of one
    /// endpoint (its checks' rule ids name it). Returns where it is named and the record.
    pub(super) fn body<'t>(
        &mut self,
        id: &str,
        ep: &ast::Endpoint,
        types: &Types<'t>,
    ) -> Option<(Location, &'t Record)> {
        let method = *ep.method;
        let Some(name) = &ep.body else {
            if method.takes_body() {
                let d = self.err(
                    ep.method.at(),
                    format!("endpoint `{id}` is a {method} without a body"),
                );
                Self::hint(d, "name the record it sends with `body: <record>`");
            }
            return None;
        };
        if !method.takes_body() {
            let d = self.err(
                name.at(),
                format!("endpoint `{id}` is a {method}, which sends no body"),
            );
            Self::hint(
                d,
                "a request with a body is a `method: POST`, `PUT` or `PATCH`",
            );
            return None;
        }
        let Some(record) = types.names.records.get(name.as_str()) else {
            let d = self.err(
                name.at(),
                format!("the body of endpoint `{id}` is unknown record `{name}`"),
            );
            Self::suggest(d, name, types.names.records.keys().copied());
            return None;
        };
        let senders = &types.names.bodies[name.as_str()];
        if senders.len() > 1 && senders[0] != id {
            let d = self.err(
                name.at(),
                format!(
                    "record `{name}` is the body of endpoint `{}` already",
                    senders[0]
                ),
            );
            Self::hint(
                d,
                "a record is the body of one endpoint (its checks' rule ids name it); give this endpoint a record of its own",
            );
        }
        Some((self.loc(name.at()), &types.records[record.index()]))
    }
}
