//! Short constructors, so a site that fails says only what is particular
//! to it: `Failure::busy()`, `Failure::timeout(method, ms)`.

use super::{Failure, HostError, InputError, RouteError, StateError, UnknownOutcome};
use crate::core::content::MAX_DRAFT_BYTES;
use crate::core::json_rpc::RpcError;

impl Failure {
    /// [`InputError::Invalid`]: the draft cannot be steered, for `reason`.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// let f = Failure::invalid_input("the message is blank");
    /// assert_eq!((f.kind(), f.message().as_str()), ("invalidInput", "the message is blank"));
    /// ```
    pub fn invalid_input(reason: impl Into<String>) -> Self {
        InputError::Invalid { reason: reason.into() }.into()
    }

    /// [`InputError::TooLarge`]: a draft of `bytes` over [`MAX_DRAFT_BYTES`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::draft_too_large(300_000).kind(), "draftTooLarge");
    /// ```
    pub fn draft_too_large(bytes: usize) -> Self {
        InputError::TooLarge { bytes, limit: MAX_DRAFT_BYTES }.into()
    }

    /// [`InputError::ImagesUnsupported`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::images_unsupported().kind(), "imagesUnsupported");
    /// ```
    pub fn images_unsupported() -> Self {
        InputError::ImagesUnsupported.into()
    }

    /// [`StateError::Busy`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::busy().kind(), "busy");
    /// ```
    pub fn busy() -> Self {
        StateError::Busy.into()
    }

    /// [`StateError::PendingTurnStart`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::pending_turn_start().kind(), "pendingTurnStart");
    /// ```
    pub fn pending_turn_start() -> Self {
        StateError::PendingTurnStart.into()
    }

    /// [`StateError::Disposed`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::disposed().message(), "disposed");
    /// ```
    pub fn disposed() -> Self {
        StateError::Disposed.into()
    }

    /// [`StateError::Unavailable`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::unavailable().kind(), "unavailable");
    /// ```
    pub fn unavailable() -> Self {
        StateError::Unavailable.into()
    }

    /// [`StateError::SessionReplaced`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::session_replaced().kind(), "sessionReplaced");
    /// ```
    pub fn session_replaced() -> Self {
        StateError::SessionReplaced.into()
    }

    /// [`RouteError::OwnershipUnknown`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::ownership_unknown().message(), "cannot establish thread ownership");
    /// ```
    pub fn ownership_unknown() -> Self {
        RouteError::OwnershipUnknown.into()
    }

    /// [`RouteError::Follower`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::follower().kind(), "follower");
    /// ```
    pub fn follower() -> Self {
        RouteError::Follower.into()
    }

    /// [`RouteError::MissingBinding`], saying what is missing.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// let f = Failure::missing_binding("startTurn is missing");
    /// assert_eq!((f.kind(), f.message().as_str()), ("missingBinding", "startTurn is missing"));
    /// ```
    pub fn missing_binding(detail: impl Into<String>) -> Self {
        RouteError::MissingBinding { detail: detail.into() }.into()
    }

    /// [`HostError::Rpc`]: the host answered `method` with a JSON-RPC error.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, RpcError};
    /// assert_eq!(Failure::rpc("turn/steer", RpcError::new(-32074, "no")).code(), Some(-32074));
    /// ```
    pub fn rpc(method: &str, error: RpcError) -> Self {
        HostError::Rpc { method: method.into(), error: Box::new(error) }.into()
    }

    /// [`HostError::Malformed`]: the answer to `method` has the wrong shape.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::malformed("thread/read", "no thread").message(), "malformed answer to thread/read: no thread");
    /// ```
    pub fn malformed(method: &str, detail: impl Into<String>) -> Self {
        HostError::Malformed { method: method.into(), detail: detail.into() }.into()
    }

    /// [`HostError::Timeout`]: `method` got no answer within `after_ms`.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::timeout("thread/read", 10).message(), "thread/read got no answer within 10 ms");
    /// ```
    pub fn timeout(method: &str, after_ms: u64) -> Self {
        HostError::Timeout { method: method.into(), after_ms }.into()
    }

    /// [`HostError::Transport`]: the transport failed `method`.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::transport("startTurn", "closed").message(), "startTurn failed in transport: closed");
    /// ```
    pub fn transport(method: &str, detail: impl Into<String>) -> Self {
        HostError::Transport { method: method.into(), detail: detail.into() }.into()
    }

    /// [`Failure::OutcomeUnknown`] for the request `method` carried.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::outcome_unknown("turn/steer", "lost").kind(), "outcomeUnknown");
    /// ```
    pub fn outcome_unknown(method: &str, detail: &str) -> Self {
        UnknownOutcome::new(method, detail).into()
    }

    /// How a submission ends when something other than its answer ends it
    /// (dispose, a closed connection, a replaced or closed session), the one
    /// rule both dialects use: `unsent` while its message has not left; once
    /// a request carrying it was written (`sent_by`), [`UnknownOutcome`] for
    /// `cause`: it may have reached the host, so the end is never a plain
    /// failure that invites a resend.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::ended_before_answer(None, Failure::disposed(), "disposed before the answer").kind(), "disposed");
    /// let sent = Failure::ended_before_answer(Some("turn/steer"), Failure::disposed(), "disposed before the answer");
    /// assert_eq!(sent.message(), "turn/steer may have reached the host (disposed before the answer); it was not resent");
    /// ```
    pub fn ended_before_answer(sent_by: Option<&str>, unsent: Failure, cause: &str) -> Self {
        match sent_by {
            Some(method) => Failure::outcome_unknown(method, cause),
            None => unsent,
        }
    }
}
