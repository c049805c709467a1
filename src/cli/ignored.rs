//! The global options a command ignores: `--config` and `--db` are global
//! (they may come before or after the command), but `copy` names its own
//! two databases, `train` reads neither, `eval` and `extract` read no
//! database, `demo` crawls its own simulated web, and `sites add` only
//! writes the config. Their help leaves those options out, and giving one
//! anyway is warned about instead of silently doing nothing.
//!
//! In: the derived command line. Out: the command with the ignored options
//! hidden per command ([`command`]), and the ignored options a parse was
//! given ([`given`]).

use clap::{Arg, ArgMatches, Command, CommandFactory};

/// (command path, the global options it ignores).
const IGNORED: &[(&[&str], &[&str])] = &[
    (&["copy"], &["config", "db"]),
    (&["train"], &["config", "db"]),
    (&["eval"], &["db"]),
    (&["extract"], &["db"]),
    (&["demo"], &["config"]),
    (&["sites", "add"], &["db"]),
];

/// The command line, each command's ignored global options hidden from its
/// help (an argument of the command's own, so the global one is not
/// propagated to it).
pub fn command<C: CommandFactory>() -> Command {
    IGNORED
        .iter()
        .fold(C::command(), |cmd, (path, ids)| hide(cmd, path, ids))
}

fn hide(cmd: Command, path: &[&str], ids: &'static [&'static str]) -> Command {
    match path {
        [] => ids.iter().fold(cmd, |cmd, id| {
            cmd.arg(
                Arg::new(*id)
                    .long(*id)
                    .value_name("PATH")
                    .hide(true)
                    .value_parser(clap::value_parser!(std::path::PathBuf)),
            )
        }),
        [name, rest @ ..] => cmd.mut_subcommand(*name, |sub| hide(sub, rest, ids)),
    }
}

/// The ignored options given to the command `matches` ran, as
/// (`--option`, `command path`), before or after the command's name.
pub fn given(matches: &ArgMatches) -> Vec<(String, String)> {
    let mut path = Vec::new();
    let mut here = matches;
    let mut seen = Vec::new();
    loop {
        for id in ["config", "db"] {
            let set = matches!(
                here.value_source(id),
                Some(clap::parser::ValueSource::CommandLine)
            );
            if set && !seen.contains(&id) {
                seen.push(id);
            }
        }
        match here.subcommand() {
            Some((name, sub)) => {
                path.push(name);
                here = sub;
            }
            None => break,
        }
    }
    let Some((_, ids)) = IGNORED.iter().find(|(p, _)| *p == path.as_slice()) else {
        return Vec::new();
    };
    (seen.into_iter())
        .filter(|id| ids.contains(id))
        .map(|id| (format!("--{id}"), path.join(" ")))
        .collect()
}
