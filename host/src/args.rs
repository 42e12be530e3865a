//! Command-line flags.

/// Parsed flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Args {
    /// Port on 127.0.0.1 (0 = any free port).
    pub port: u16,
    /// Repository root (holds `www/` and `pkg/`).
    pub root: String,
}

impl Args {
    /// Parses `--port N` and `--root DIR`.
    pub fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
        let mut parsed = Args { port: 8080, root: ".".into() };
        while let Some(flag) = args.next() {
            let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
            match flag.as_str() {
                "--port" => parsed.port = value.parse().map_err(|_| format!("bad port {value}"))?,
                "--root" => parsed.root = value,
                other => return Err(format!("unknown flag {other}")),
            }
        }
        Ok(parsed)
    }
}

#[cfg(test)]
mod tests {
    use super::Args;

    #[test]
    fn flags_parse_and_bad_ones_are_refused() {
        let a = Args::parse(["--port", "9000", "--root", "/r"].map(String::from).into_iter()).unwrap();
        assert_eq!(a, Args { port: 9000, root: "/r".into() });
        assert!(Args::parse(["--port"].map(String::from).into_iter()).is_err());
        assert!(Args::parse(["--nope", "1"].map(String::from).into_iter()).is_err());
    }
}
