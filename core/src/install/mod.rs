//! The sans-IO install planner behind `init` and `providers lock`.
