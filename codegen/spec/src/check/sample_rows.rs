//! Sample records beyond their shape: each value in the format of its field.

use super::Cx;
use crate::ast::{Value, ValueKind};
use crate::model::Field;

impl Cx<'_> {
    /// A value of a field that has a format is in that format (a value of the wrong type is
    /// reported by the type check).
    pub(super) fn sample_format(&mut self, value: &Value, field: &Field) {
        let Some(format) = field.format else { return };
        let (holds, shown) = match &value.item {
            ValueKind::String(s) if !format.of_integers() => (format.holds_text(s), s.clone()),
            ValueKind::Number(n) if format.of_integers() => match n.as_i64() {
                Some(i) => (format.holds_integer(i), i.to_string()),
                None => (false, n.to_string()),
            },
            _ => return,
        };
        if !holds {
            let d = self.err(
                value.at(),
                format!(
                    "`{shown}` is not in the format of field `{}`: {}",
                    field.wire,
                    format.description()
                ),
            );
            Self::hint(
                d,
                format!("write a value in the format `{}`", format.name()),
            );
        }
    }
}
