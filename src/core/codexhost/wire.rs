//! codexhost wire types (serde). Answers are parsed strictly: a missing or
//! mistyped field, `null`, or an unknown `delivery` value is an error.

use serde::{Deserialize, Serialize};

use crate::core::json::Json;

/// How a steer reaches the agent.
///
/// ```
/// use renderer_steering::core::codexhost::Delivery;
/// let d: Delivery = serde_json::from_str("\"activeTurn\"").unwrap();
/// assert_eq!(d, Delivery::ActiveTurn);
/// assert!(serde_json::from_str::<Delivery>("\"sideways\"").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Delivery {
    /// A Codex thread: the stock `turn/steer`, untouched.
    Official,
    /// Folded into the running turn by the harness.
    ActiveTurn,
    /// The running turn is stopped and a new one starts with the input.
    NewTurn,
}

impl Delivery {
    /// The wire name.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::Delivery;
    /// assert_eq!(Delivery::NewTurn.as_str(), "newTurn");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::Official => "official",
            Delivery::ActiveTurn => "activeTurn",
            Delivery::NewTurn => "newTurn",
        }
    }

    /// The delivery a wire name stands for ([`Delivery::as_str`] reversed).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::Delivery;
    /// assert_eq!(Delivery::from_name("activeTurn"), Some(Delivery::ActiveTurn));
    /// assert_eq!(Delivery::from_name("later"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Self> {
        [Delivery::Official, Delivery::ActiveTurn, Delivery::NewTurn].into_iter().find(|d| d.as_str() == name)
    }
}

/// `codexhost/thread/steering/inspect` result.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct InspectAnswer {
    /// The host's decision.
    pub delivery: Delivery,
}

/// Owner of a thread.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "OwnerFields")]
pub(crate) enum Owner {
    /// Run by the official app-server.
    Codex,
    /// Run by another harness through the host.
    External {
        /// The harness.
        harness_id: String,
    },
}

/// The owner fields as sent (`owner` and, for `external`, `harnessId`). Read
/// flat and converted rather than with `#[serde(tag, flatten)]`, whose
/// buffering machinery cost about 8 KB of wasm for two fields.
#[derive(Deserialize)]
struct OwnerFields {
    owner: String,
    #[serde(default, rename = "harnessId")]
    harness_id: Option<String>,
}

impl TryFrom<OwnerFields> for Owner {
    type Error = &'static str;

    fn try_from(fields: OwnerFields) -> Result<Self, Self::Error> {
        match (fields.owner.as_str(), fields.harness_id) {
            ("codex", _) => Ok(Owner::Codex),
            ("external", Some(harness_id)) => Ok(Owner::External { harness_id }),
            ("external", None) => Err("an external owner needs harnessId"),
            _ => Err("unknown owner"),
        }
    }
}

/// One row of `codexhost/thread/ownership/list`.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "OwnershipRowFields")]
pub(crate) struct OwnershipRow {
    /// The thread.
    pub thread_id: String,
    /// Its owner.
    pub owner: Owner,
}

#[derive(Deserialize)]
struct OwnershipRowFields {
    #[serde(rename = "threadId")]
    thread_id: String,
    owner: String,
    #[serde(default, rename = "harnessId")]
    harness_id: Option<String>,
}

impl TryFrom<OwnershipRowFields> for OwnershipRow {
    type Error = &'static str;

    fn try_from(row: OwnershipRowFields) -> Result<Self, Self::Error> {
        let owner = Owner::try_from(OwnerFields { owner: row.owner, harness_id: row.harness_id })?;
        Ok(OwnershipRow { thread_id: row.thread_id, owner })
    }
}

/// `codexhost/thread/ownership/list` result.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct OwnershipAnswer {
    /// Rows for the asked ids.
    pub threads: Vec<OwnershipRow>,
}

/// The part of `thread/read` the native check reads.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ThreadReadAnswer {
    /// The thread.
    pub thread: ThreadMeta,
}

/// Thread metadata from `thread/read`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct ThreadMeta {
    /// Thread id.
    pub id: String,
    /// Provider (any JSON; checked by [`ThreadReadAnswer::is_native`]).
    #[serde(default, rename = "modelProvider")]
    pub model_provider: Option<Json>,
    /// CLI version (any JSON; checked by [`ThreadReadAnswer::is_native`]).
    #[serde(default, rename = "cliVersion")]
    pub cli_version: Option<Json>,
}

impl ThreadReadAnswer {
    /// Native only if the id matches and both fields are non-empty strings
    /// other than `"codexhost"`.
    pub(crate) fn is_native(&self, thread_id: &str) -> bool {
        let real = |v: &Option<Json>| v.as_ref().and_then(|v| v.read::<String>().ok()).is_some_and(|s| !s.is_empty() && s != "codexhost");
        self.thread.id == thread_id && real(&self.thread.model_provider) && real(&self.thread.cli_version)
    }
}

/// `turn/steer` result. `delivery` may only be `activeTurn` or `newTurn`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct SteerAnswer {
    /// The turn that now holds the input.
    #[serde(rename = "turnId")]
    pub turn_id: String,
    /// How the host delivered it.
    #[serde(default)]
    pub delivery: Option<HostDelivery>,
}

/// The deliveries a host may report in a `turn/steer` answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum HostDelivery {
    /// Folded into the running turn.
    ActiveTurn,
    /// Restarted as a new turn.
    NewTurn,
}

impl HostDelivery {
    /// As a [`Delivery`].
    pub(crate) fn as_delivery(self) -> Delivery {
        match self {
            HostDelivery::ActiveTurn => Delivery::ActiveTurn,
            HostDelivery::NewTurn => Delivery::NewTurn,
        }
    }
}

/// `turn/start` result (only the id is read).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TurnStartAnswer {
    /// The started turn.
    pub turn: TurnRef,
}

/// A turn reference.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct TurnRef {
    /// Turn id.
    pub id: String,
}

/// The params of every call that names a thread without carrying the
/// message: the three probes and the `thread/read` that checks a retry.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ThreadParams<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_ids: Option<[&'a str; 1]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub include_turns: Option<bool>,
}

impl<'a> ThreadParams<'a> {
    /// `{ threadId, includeTurns }` for `thread/read`.
    pub(crate) fn read(thread_id: &'a str, include_turns: bool) -> Json {
        Json::of(&ThreadParams { thread_id: Some(thread_id), include_turns: Some(include_turns), ..ThreadParams::default() })
    }
}

#[cfg(test)]
mod tests {
    /// Reads a wire type from a JSON tree's text, as the engines read answers.
    fn parse<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> serde_json::Result<T> {
        serde_json::from_str(&value.to_string())
    }

    #[test]
    fn an_inspect_answer_reads_its_delivery() {
        use crate::core::codexhost::wire::InspectAnswer;
        let a: InspectAnswer = parse(serde_json::json!({"delivery": "newTurn"})).unwrap();
        assert_eq!(a.delivery.as_str(), "newTurn");
    }

    #[test]
    fn an_owner_row_needs_a_known_owner_and_an_external_one_a_harness() {
        use crate::core::codexhost::wire::Owner;
        let o: Owner = parse(serde_json::json!({"owner": "external", "harnessId": "claude"})).unwrap();
        assert!(matches!(o, Owner::External { .. }));
        let unknown = serde_json::json!({"owner": "martian"});
        assert!(parse::<Owner>(unknown).is_err());
        let nameless = serde_json::json!({"owner": "external"});
        assert!(parse::<Owner>(nameless).is_err());
    }

    #[test]
    fn an_ownership_row_reads_its_thread_id() {
        use crate::core::codexhost::wire::OwnershipRow;
        let r: OwnershipRow = parse(serde_json::json!({"threadId": "t", "owner": "codex"})).unwrap();
        assert_eq!(r.thread_id, "t");
    }

    #[test]
    fn an_ownership_answer_may_list_no_threads() {
        use crate::core::codexhost::wire::OwnershipAnswer;
        let a: OwnershipAnswer = parse(serde_json::json!({"threads": []})).unwrap();
        assert!(a.threads.is_empty());
    }

    #[test]
    fn a_thread_from_openai_is_native() {
        use crate::core::codexhost::wire::ThreadReadAnswer;
        let a: ThreadReadAnswer = parse(serde_json::json!(
            {"thread": {"id": "t", "modelProvider": "openai", "cliVersion": "0.9"}}))
        .unwrap();
        assert!(a.is_native("t"));
    }

    #[test]
    fn thread_metadata_without_a_provider_reads_as_none() {
        use crate::core::codexhost::wire::ThreadMeta;
        let m: ThreadMeta = parse(serde_json::json!({"id": "t"})).unwrap();
        assert!(m.model_provider.is_none());
    }

    #[test]
    fn a_thread_from_the_codexhost_provider_is_not_native() {
        use crate::core::codexhost::wire::ThreadReadAnswer;
        let a: ThreadReadAnswer = parse(serde_json::json!(
            {"thread": {"id": "t", "modelProvider": "codexhost", "cliVersion": "1"}}))
        .unwrap();
        assert!(!a.is_native("t"));
    }

    #[test]
    fn a_steer_answer_reads_its_turn_and_refuses_the_official_delivery() {
        use crate::core::codexhost::wire::SteerAnswer;
        let a: SteerAnswer = parse(serde_json::json!({"turnId": "t2", "delivery": "newTurn"})).unwrap();
        assert_eq!(a.turn_id, "t2");
        assert!(parse::<SteerAnswer>(serde_json::json!({"turnId": "t2", "delivery": "official"})).is_err());
    }

    #[test]
    fn a_delivery_reads_back_from_its_wire_name() {
        use crate::core::codexhost::wire::Delivery;
        for delivery in [Delivery::Official, Delivery::ActiveTurn, Delivery::NewTurn] {
            assert_eq!(Delivery::from_name(delivery.as_str()), Some(delivery));
        }
        assert_eq!(Delivery::from_name("later"), None);
    }

    #[test]
    fn host_delivery_active_turn_maps_to_the_active_turn_delivery() {
        use crate::core::codexhost::wire::HostDelivery;
        assert_eq!(HostDelivery::ActiveTurn.as_delivery().as_str(), "activeTurn");
    }

    #[test]
    fn host_delivery_new_turn_maps_to_the_new_turn_delivery() {
        use crate::core::codexhost::wire::HostDelivery;
        assert_eq!(HostDelivery::NewTurn.as_delivery().as_str(), "newTurn");
    }

    #[test]
    fn a_turn_start_answer_reads_the_turn_id() {
        use crate::core::codexhost::wire::TurnStartAnswer;
        let a: TurnStartAnswer = parse(serde_json::json!({"turn": {"id": "t9", "status": "inProgress"}})).unwrap();
        assert_eq!(a.turn.id, "t9");
    }

    #[test]
    fn a_turn_reference_reads_its_id() {
        use crate::core::codexhost::wire::TurnRef;
        let t: TurnRef = parse(serde_json::json!({"id": "x"})).unwrap();
        assert_eq!(t.id, "x");
    }
}
