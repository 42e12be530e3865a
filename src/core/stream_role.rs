//! Which window steers a thread: the app's `streamRole(threadId)` says
//! whether this window follows a stream another window owns. The driver
//! reads what the callback answered without judging it ([`RoleFacts`]);
//! this is the one place that decides what the answer means.

/// What the driver read of one `streamRole(threadId)` call, nothing decided.
///
/// ```
/// use renderer_steering::core::RoleFacts;
/// let follower = RoleFacts { said: Some("follower".into()), ..Default::default() };
/// assert!(follower.follows());
/// assert!(!RoleFacts::default().follows(), "no answer is the owner's");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleFacts {
    /// The callback threw.
    pub threw: bool,
    /// What it returned, when a string (read whole).
    pub said: Option<String>,
    /// The `role` field of what it returned, when a string (read whole).
    pub role: Option<String>,
}

/// The one answer that makes a window a follower.
const FOLLOWER: &str = "follower";

impl RoleFacts {
    /// True when the window follows the thread's stream: the callback
    /// returned `"follower"` or `{ role: "follower" }`. Anything else, a
    /// throw included, reads as the owner's, as when the app gives no
    /// callback: the window steers itself and the host's answer decides.
    ///
    /// ```
    /// # use renderer_steering::core::RoleFacts;
    /// let field = RoleFacts { role: Some("follower".into()), ..Default::default() };
    /// assert!(field.follows());
    /// let threw = RoleFacts { threw: true, said: Some("follower".into()), role: None };
    /// assert!(!threw.follows());
    /// let other = RoleFacts { said: Some("Follower".into()), ..Default::default() };
    /// assert!(!other.follows(), "the word is matched exactly");
    /// ```
    pub fn follows(&self) -> bool {
        !self.threw && (self.said.as_deref() == Some(FOLLOWER) || self.role.as_deref() == Some(FOLLOWER))
    }
}
