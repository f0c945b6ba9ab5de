//! Terraform's `-var NAME=VALUE` and `-var-file FILE`, which `init`, `providers`, `providers
//! lock` and `providers mirror` read for the root module's `const` variables. Terraform
//! keeps both in one list (`arguments.Vars`): a later option of either kind replaces an
//! earlier value, so the order between them is kept here from clap's indices.

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};

const VAR: &str = "tf_var";
const VAR_FILE: &str = "tf_var_file";

/// One option, in command-line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VarOption {
    /// `-var NAME=VALUE`, as written.
    Var(String),
    /// `-var-file FILE`, as written (relative to the working directory).
    File(String),
}

/// The `-var` and `-var-file` options of one command, in the order given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VarFlags(pub Vec<VarOption>);

impl FromArgMatches for VarFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut all: Vec<(usize, VarOption)> = Vec::new();
        let mut take = |id: &str, make: fn(String) -> VarOption| {
            let (Some(values), Some(indices)) = (m.get_many::<String>(id), m.indices_of(id)) else {
                return;
            };
            all.extend(indices.zip(values.map(|v| make(v.clone()))));
        };
        take(VAR, VarOption::Var);
        take(VAR_FILE, VarOption::File);
        all.sort_by_key(|(i, _)| *i);
        Ok(VarFlags(all.into_iter().map(|(_, o)| o).collect()))
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl Args for VarFlags {
    fn augment_args(cmd: Command) -> Command {
        cmd.arg(
            Arg::new(VAR)
                .long("var")
                .value_name("NAME=VALUE")
                .action(ArgAction::Append)
                .help("Set a root module input variable (as Terraform's -var; for const variables in module sources)"),
        )
        .arg(
            Arg::new(VAR_FILE)
                .long("var-file")
                .value_name("FILE")
                .action(ArgAction::Append)
                .help("Read root module input variable values from FILE, after terraform.tfvars and *.auto.tfvars"),
        )
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, clap::Parser)]
    struct T {
        #[command(flatten)]
        vars: VarFlags,
    }

    #[test]
    fn vars_and_var_files_keep_their_command_line_order() {
        use clap::Parser;
        let t = T::try_parse_from([
            "t",
            "--var-file=a.tfvars",
            "--var",
            "x=1",
            "--var-file",
            "b.tfvars",
            "--var=y=2",
        ])
        .unwrap();
        assert_eq!(
            t.vars.0,
            vec![
                VarOption::File("a.tfvars".into()),
                VarOption::Var("x=1".into()),
                VarOption::File("b.tfvars".into()),
                VarOption::Var("y=2".into()),
            ]
        );
    }
}
