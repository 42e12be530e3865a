// Shared by the targets: turn fuzz bytes into host answers.
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Json, RpcError};

/// Splits the input into chunks at 0xFF; each chunk becomes one answer.
pub fn answers(data: &[u8]) -> impl Iterator<Item = HostAnswer> + '_ {
    data.split(|b| *b == 0xFF).map(answer)
}

/// First byte picks the kind, the rest is the payload (JSON text or a message).
pub fn answer(chunk: &[u8]) -> HostAnswer {
    let (kind, rest) = chunk.split_first().unwrap_or((&0, &[]));
    match kind % 9 {
        0..=3 => match Json::parse(String::from_utf8_lossy(rest).into_owned()) {
            Ok(text) => HostAnswer::Result(text),
            Err(e) => HostAnswer::Unreadable(e.to_string()),
        },
        4 => {
            let code = rest.first().map(|c| -32000 - i64::from(*c)).unwrap_or(-32601);
            let message = String::from_utf8_lossy(rest.get(1..).unwrap_or_default()).into_owned();
            let data = Json::parse(String::from_utf8_lossy(rest.get(1..).unwrap_or_default()).into_owned()).ok();
            HostAnswer::Error(RpcError { code, message, data })
        }
        5 => HostAnswer::Error(RpcError::new(-32600, format!("Invalid request: unknown variant `{}`", String::from_utf8_lossy(rest)))),
        6 => HostAnswer::Timeout,
        7 => HostAnswer::NotSent(String::from_utf8_lossy(rest).into_owned()),
        _ => HostAnswer::Transport(String::from_utf8_lossy(rest).into_owned()),
    }
}
