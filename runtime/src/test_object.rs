//! An error object for the runtime's unit tests: the code and the details, nothing else.

use crate::ErrorBody;

/// The error object of the unit tests.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Object {
    pub(crate) code: String,
    pub(crate) details: Vec<(String, String, String)>,
}

impl ErrorBody for Object {
    type Code = String;
    fn from_code(code: String, _: String) -> Self {
        Self {
            code,
            details: Vec::new(),
        }
    }
    fn codes() -> &'static [String] {
        &[]
    }
    fn code(&self) -> &String {
        &self.code
    }
    fn http_status(&self) -> Option<u16> {
        None
    }
    fn message(&self) -> &str {
        ""
    }
    fn hint(&self) -> Option<&str> {
        None
    }
    fn set_hint(&mut self, _: String) {}
    fn push_detail(&mut self, field: String, got: String, reason: String) {
        self.details.push((field, got, reason));
    }
    fn details(&self) -> Vec<(&str, &str, &str)> {
        Vec::new()
    }
}
