//! A GTP controller for tests, over the `gtp` crate's process pipes and
//! response parser: raw lines in (no ids unless the line has one), whole
//! responses out, every stdout byte kept for checking.

use gtp_client::detached_command::DetachedCommand;
use gtp_client::{Command, Response, ResponseParser};
use std::time::{Duration, Instant};

/// A controller over the engine's pipes; keeps every stdout byte so that
/// the whole stream can be checked to hold nothing but responses.
pub struct Controller {
    proc: DetachedCommand,
    parser: ResponseParser,
    stdout: String,
}

impl Controller {
    pub fn start(program: &str, args: &[&str]) -> Controller {
        Controller {
            proc: DetachedCommand::start(program, args)
                .unwrap_or_else(|e| panic!("start {program}: {e:?}")),
            parser: ResponseParser::new(),
            stdout: String::new(),
        }
    }

    pub fn write(&mut self, text: &str) {
        self.proc.send_str(text);
    }

    pub fn send(&mut self, c: Command) {
        self.write(&c.to_string());
    }

    pub fn response(&mut self) -> Response {
        let t = Instant::now();
        loop {
            match self.parser.get_response() {
                Ok(r) => return r,
                Err(gtp_client::ResponseError::IncompleteResponse) => {}
                Err(e) => panic!("malformed response {e:?} in {:?}", self.stdout),
            }
            // After `quit` the pipes close: what was read before still counts.
            let alive = self.proc.poll().is_ok();
            if self.proc.stdout_available() {
                let s = self.proc.recv_stdout();
                self.stdout.push_str(&s);
                self.parser.feed(&s);
                continue;
            }
            assert!(alive, "engine gone; stdout {:?}", self.stdout);
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "no response; stdout so far {:?}",
                self.stdout
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Sends one command and expects success.
    pub fn ok(&mut self, line: &str) -> String {
        self.write(&format!("{line}\n"));
        match self.response() {
            Response::Result((_, t)) => t,
            Response::Error((_, t)) => panic!("{line}: ? {t}"),
        }
    }

    pub fn expect_ok(&mut self) -> String {
        match self.response() {
            Response::Result((id, t)) => {
                assert_eq!(id, None, "an id appeared without one sent");
                t
            }
            Response::Error((_, t)) => panic!("? {t}"),
        }
    }

    /// Every stdout byte so far must be part of a well-formed response.
    pub fn check_stream(&self) {
        for chunk in self.stdout.split_terminator("\n\n") {
            assert!(
                chunk.starts_with('=') || chunk.starts_with('?'),
                "stray output {chunk:?}"
            );
        }
        assert!(self.stdout.ends_with("\n\n"));
    }

    pub fn stop(mut self) {
        self.proc.shutdown();
    }
}
