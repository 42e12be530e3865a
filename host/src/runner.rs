//! Plays the scripted turn on a task, reporting each beat to a renderer and
//! keeping the turn's current activity where the dialect can read it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::script::{turn_script, word_delay, Activity, Beat, TOOL_TICKS};

/// How a dialect shows the beats on its wire.
pub trait Renderer: Send + 'static {
    /// A streamed chunk of text.
    fn text(&mut self, chunk: &str);
    /// A tool call started.
    fn tool_started(&mut self, call: usize, title: &str);
    /// Tool progress in percent.
    fn tool_progress(&mut self, call: usize, percent: u32);
    /// A tool call finished.
    fn tool_done(&mut self, call: usize, title: &str);
    /// Between beats: a break point where pending input is delivered.
    fn break_point(&mut self) {}
    /// The turn ended (`interrupted` when stopped).
    fn finished(&mut self, interrupted: bool);
}

/// A running turn as the dialect sees it.
#[derive(Clone)]
pub struct TurnHandle {
    /// What it does now.
    pub activity: Arc<Mutex<Activity>>,
    stop: Arc<AtomicBool>,
}

impl TurnHandle {
    /// The current activity.
    pub fn activity(&self) -> Activity {
        *self.activity.lock().expect("activity lock")
    }

    /// Asks the turn to stop at its next tick.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// True while the turn runs.
    pub fn running(&self) -> bool {
        self.activity() != Activity::Idle
    }
}

/// Starts a turn; returns its handle at once.
pub fn start(mut renderer: impl Renderer, speed: f64) -> TurnHandle {
    let handle = TurnHandle { activity: Arc::new(Mutex::new(Activity::Streaming)), stop: Arc::new(AtomicBool::new(false)) };
    let turn = handle.clone();
    tokio::spawn(async move {
        let set = |a| *turn.activity.lock().expect("activity lock") = a;
        let stopped = || turn.stop.load(Ordering::SeqCst);
        'beats: for (index, beat) in turn_script(speed).into_iter().enumerate() {
            renderer.break_point();
            match beat {
                Beat::Text(words) => {
                    set(Activity::Streaming);
                    for (i, word) in words.split(' ').enumerate() {
                        if stopped() {
                            break 'beats;
                        }
                        renderer.text(&if i == 0 { word.to_string() } else { format!(" {word}") });
                        tokio::time::sleep(word_delay(speed)).await;
                    }
                    renderer.text("\n");
                }
                Beat::Tool(title, length) => {
                    set(Activity::Tool);
                    renderer.tool_started(index, title);
                    for tick in 1..=TOOL_TICKS {
                        tokio::time::sleep(length / TOOL_TICKS).await;
                        if stopped() {
                            break 'beats;
                        }
                        renderer.tool_progress(index, tick * 100 / TOOL_TICKS);
                    }
                    renderer.tool_done(index, title);
                }
            }
        }
        let interrupted = stopped();
        set(Activity::Idle);
        renderer.finished(interrupted);
    });
    handle
}
