//! Fault switches, chosen per connection from the WebSocket URL's query.

use std::collections::HashMap;

/// What this connection should do wrong.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    /// Added before every answer (ms).
    pub latency_ms: u64,
    /// Close the socket when this method arrives.
    pub drop_on: Option<String>,
    /// Answer this method with a garbled frame.
    pub garble_on: Option<String>,
    /// Never answer this method.
    pub hang_on: Option<String>,
    /// Answer this method twice.
    pub duplicate_on: Option<String>,
    /// Also send an answer for an id nobody asked for.
    pub unknown_id_on: Option<String>,
    /// Pad this method's answer to 10 MiB.
    pub huge_on: Option<String>,
    /// Apply this method but lose its first answer (later ones arrive):
    /// "the host applied the steer, the answer never came back".
    pub lose_once_on: Option<String>,
}

impl Faults {
    /// Reads `latency`, `drop`, `garble`, `hang`, `dup`, `unknownId`, `huge`, `lose`.
    pub fn from_query(query: &HashMap<String, String>) -> Faults {
        let method = |key: &str| query.get(key).filter(|v| !v.is_empty()).cloned();
        Faults {
            latency_ms: query.get("latency").and_then(|v| v.parse().ok()).unwrap_or(0).min(60_000),
            drop_on: method("drop"),
            garble_on: method("garble"),
            hang_on: method("hang"),
            duplicate_on: method("dup"),
            unknown_id_on: method("unknownId"),
            huge_on: method("huge"),
            lose_once_on: method("lose"),
        }
    }

    /// True when `switch` names `method` (or `*`).
    pub fn hits(switch: &Option<String>, method: &str) -> bool {
        switch.as_deref().is_some_and(|s| s == method || s == "*")
    }
}

#[cfg(test)]
mod tests {
    use super::Faults;
    use std::collections::HashMap;

    #[test]
    fn switches_parse_from_the_query() {
        let q: HashMap<String, String> =
            [("latency", "250"), ("hang", "turn/steer"), ("drop", "")].into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let f = Faults::from_query(&q);
        assert_eq!(f.latency_ms, 250);
        assert!(Faults::hits(&f.hang_on, "turn/steer"));
        assert!(!Faults::hits(&f.hang_on, "turn/start"));
        assert_eq!(f.drop_on, None);
        assert_eq!(f.lose_once_on, None);
    }
}
