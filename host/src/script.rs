//! The scripted agent turn: text streams, then a tool call runs for a few
//! seconds, twice, then a closing line. Each dialect renders these beats in
//! its own notifications.

use std::time::Duration;

/// One beat of a turn.
#[derive(Debug, Clone, PartialEq)]
pub enum Beat {
    /// Stream these words.
    Text(&'static str),
    /// Run a tool call for this long.
    Tool(&'static str, Duration),
}

/// The turn every mode plays.
pub fn turn_script(speed: f64) -> Vec<Beat> {
    let secs = |s: f64| Duration::from_millis((s * 1000.0 / speed) as u64);
    vec![
        Beat::Text("Let me look at the project layout and the lockfile first."),
        Beat::Tool("npm install", secs(4.0)),
        Beat::Text("Dependencies are installed. Now I will run the test suite to see what fails."),
        Beat::Tool("npm test", secs(4.0)),
        Beat::Text("All tests pass. The change is ready."),
    ]
}

/// Delay between streamed words.
pub fn word_delay(speed: f64) -> Duration {
    Duration::from_millis((180.0 / speed) as u64)
}

/// Tool progress ticks per tool call.
pub const TOOL_TICKS: u32 = 10;

/// What the turn is doing right now (inspect reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// No turn runs.
    Idle,
    /// Text is streaming.
    Streaming,
    /// A tool call runs.
    Tool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_alternates_text_and_tools() {
        let s = turn_script(1.0);
        assert!(matches!(s[0], Beat::Text(_)));
        assert!(matches!(s[1], Beat::Tool(_, d) if d == Duration::from_secs(4)));
        assert_eq!(s.len(), 5);
        assert!(word_delay(2.0) < word_delay(1.0));
    }
}
