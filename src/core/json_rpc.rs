//! JSON-RPC 2.0 pieces the engines share: error objects and the
//! "method unsupported" rule.

use serde::{Deserialize, Serialize};

use super::json::Json;

/// Identifies one host call made by an engine (not the JSON-RPC wire id,
/// which belongs to the embedding app's transport).
///
/// ```
/// use renderer_steering::core::RequestId;
/// assert!(RequestId(1) < RequestId(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct RequestId(pub u64);

/// A JSON-RPC error object as the host sent it.
///
/// ```
/// use renderer_steering::core::RpcError;
/// let e = RpcError::new(-32601, "Method not found");
/// assert!(e.is_unsupported("codexhost/thread/steering/inspect"));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i64,
    /// The host's human message.
    pub message: String,
    /// Optional structured data, passed through intact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Json>,
}

/// `method not found`.
pub(crate) const METHOD_NOT_FOUND: i64 = -32601;
/// `invalid request` (a stock app-server also uses it for unknown methods).
pub(crate) const INVALID_REQUEST: i64 = -32600;

impl RpcError {
    /// An error without data.
    ///
    /// ```
    /// # use renderer_steering::core::RpcError;
    /// assert_eq!(RpcError::new(-32074, "no").code, -32074);
    /// ```
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    /// True when this error says `method` does not exist on the host:
    /// `-32601`, or `-32600` with ``Invalid request: unknown variant `<method>` ``.
    ///
    /// ```
    /// # use renderer_steering::core::RpcError;
    /// let stock = RpcError::new(-32600, "Invalid request: unknown variant `thread/x`, expected one of ...");
    /// assert!(stock.is_unsupported("thread/x"));
    /// assert!(!stock.is_unsupported("thread/y"));
    /// ```
    pub fn is_unsupported(&self, method: &str) -> bool {
        match self.code {
            METHOD_NOT_FOUND => true,
            INVALID_REQUEST => self
                .message
                .strip_prefix("Invalid request: unknown variant `")
                .and_then(|rest| rest.strip_prefix(method))
                .is_some_and(|rest| rest.starts_with('`')),
            _ => false,
        }
    }

    /// The `data.reason` string some hosts attach (ACP `-32010`, `-32002`).
    ///
    /// ```
    /// # use renderer_steering::core::RpcError;
    /// let e = RpcError { code: -32010, message: "x".into(), data: Some(serde_json::json!({"reason": "no_running_turn"}).into()) };
    /// assert_eq!(e.reason().as_deref(), Some("no_running_turn"));
    /// ```
    pub fn reason(&self) -> Option<String> {
        #[derive(Deserialize)]
        struct Reason<'a> {
            #[serde(borrow)]
            reason: Option<std::borrow::Cow<'a, str>>,
        }
        let reason = self.data.as_ref()?.read::<Reason>().ok()?.reason?;
        Some(reason.into_owned())
    }
}
