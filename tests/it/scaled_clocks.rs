//! A clock multiplied by a constant (`2 * x <= 6`, `10 >= 5 * y`, UPPAAL
//! models write `2 >= 5*xabs`): the bound is divided by the factor when
//! the model is built. Where the quotient is no integer (`5 * x <= 2` is
//! `x <= 2/5`) an integer zone cannot hold it, and the comparison is an
//! error located on it. Every answer is worked out by hand beside its
//! model; `support::every_order` replays every trace in the independent
//! simulator.

use crate::support;
use zeno::checker::Verdict::{Fails, Holds};

/// In `a` (`x <= 3`) `P` leaves at some `x_e` in [2, 3], resets `y`; in
/// `b` (`y <= 2`) `x - y` stays `x_e`, so `x = x_e + y` is at most 5,
/// reached only with `x_e = 3`, `y = 2`; `b -> c` needs `x - y > 2`, so in
/// `c` `x - y` is in (2, 3].
#[test]
fn a_scaled_bound_is_the_bound_divided_by_the_factor() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant 2 * x <= 6;\n\
          location b invariant 10 >= 5 * y;\n\
          location c;\n\
          a -> b when x * 3 >= 6 do y = 0;\n\
          b -> c when 2 * (x - y) > 4;\n\
        }\n\
        system P;\n\
        check a_bound: A[] (P.a imply 3 * x <= 9);\n\
        check enter_late: E<> (P.b && -2 * x > -4);\n\
        check b_reaches_5: E<> (P.b && 5 * x >= 25);\n\
        check b_beyond_5: E<> (P.b && 5 * x > 25);\n\
        check c_at_3: E<> (P.c && 2 * (x - y) == 6);\n\
        check c_at_2: E<> (P.c && x - y <= 2);\n";
    support::every_order(text, &[Holds, Fails, Holds, Fails, Holds, Fails]);
}

/// The factor may be a template parameter: each instance divides by its
/// own. `Q2` waits in `a` until `x = 3` at most (`2 * x <= 6`), `Q3` until
/// `x = 2` (`3 * x <= 6`); both start together, so `x <= 2` while both
/// are in `a`.
#[test]
fn the_factor_may_be_a_parameter() {
    let text = "clock x;\n\
        template P(const int k) {\n\
          init location a invariant k * x <= 6;\n\
          location b;\n\
          a -> b;\n\
        }\n\
        Q2 = P(2);\n\
        Q3 = P(3);\n\
        system Q2, Q3;\n\
        check q2_waits_to_3: E<> (Q2.a && x == 3);\n\
        check both_until_2: E<> (Q2.a && Q3.a && x > 2);\n";
    support::every_order(text, &[Holds, Fails]);
}

/// What stays refused, each located on its comparison: a bound that is no
/// integer once divided (in an invariant, a guard, a check), a bound that
/// is not a constant, a factor of 0.
#[test]
fn a_bound_no_zone_holds_is_a_located_error() {
    let text = "clock x;\n\
        int n = 4;\n\
        template P() {\n\
          init location a invariant 2 >= 5 * x;\n\
          location b;\n\
          location c;\n\
          a -> b when 3 * x > 1;\n\
          b -> c when 2 * x <= n;\n\
          c -> a when 0 * x <= 1;\n\
        }\n\
        system P;\n\
        check half: E<> 2 * x == 1;\n";
    let errors = support::errors(text);
    let at: Vec<&str> = errors.iter().map(|(_, at)| at.as_str()).collect();
    assert_eq!(
        at,
        ["2 >= 5 * x", "3 * x > 1", "n", "0 * x <= 1", "2 * x == 1"],
        "{errors:?}"
    );
    assert!(
        errors[0].0.contains("by 2/5") && errors[0].0.contains("by 5"),
        "{errors:?}"
    );
    assert!(errors[1].0.contains("by 1/3"), "{errors:?}");
    assert!(
        errors[2].0.contains("compared with constants only"),
        "{errors:?}"
    );
    assert!(errors[3].0.contains("multiplied by 0"), "{errors:?}");
    assert!(errors[4].0.contains("by 1/2"), "{errors:?}");
}

/// Clock comparisons under `||` in checks: each disjunct is a zone, and
/// the check looks at every one. `P` leaves `a` at some `x_e` in [3, 5]
/// and resets `y`; in `b` `x - y` stays `x_e` and `y` grows without end.
#[test]
fn clock_disjunctions_in_checks_split_the_zone() {
    let text = "clock x, y;\n\
        template P() {\n\
          init location a invariant x <= 5;\n\
          location b;\n\
          a -> b when x >= 3 do y = 0;\n\
        }\n\
        system P;\n\
        check late_y: E<> (P.b && (x < 3 || y > 2));\n\
        check neither: E<> (P.b && (x < 3 || x - y > 5));\n\
        check left_late: A[] (P.a || x >= 3);\n\
        check entry_kept: A[] (P.a || (x - y >= 3 && x - y <= 5));\n\
        check never_5_at_entry: A[] (P.a || x < 5 || y > 0);\n";
    // The last fails exactly at entering `b` with `x = 5`, `y = 0`.
    support::every_order(text, &[Holds, Fails, Holds, Holds, Fails]);
}
