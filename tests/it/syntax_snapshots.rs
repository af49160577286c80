//! Tree dumps of small valid and broken inputs (read before accepting).

use expect_test::{Expect, expect};
use zeno::syntax::parse;

fn check(text: &str, expected: Expect) {
    let parse = parse(text);
    assert_eq!(parse.syntax_node().to_string(), text);
    expected.assert_eq(&parse.debug_dump());
}

#[test]
fn precedence() {
    check(
        "int x = -a + b * c < d && !e || f imply g ? h : i;",
        expect![[r#"
            SOURCE_FILE@0..50
              VAR_DECL@0..50
                INT_TYPE@0..3
                  INT_KW@0..3 "int"
                WHITESPACE@3..4 " "
                VAR_DECLARATOR@4..49
                  NAME@4..5
                    IDENT@4..5 "x"
                  WHITESPACE@5..6 " "
                  EQ@6..7 "="
                  WHITESPACE@7..8 " "
                  COND_EXPR@8..49
                    BIN_EXPR@8..41
                      BIN_EXPR@8..33
                        BIN_EXPR@8..28
                          BIN_EXPR@8..22
                            BIN_EXPR@8..18
                              PREFIX_EXPR@8..10
                                MINUS@8..9 "-"
                                NAME_REF@9..10
                                  IDENT@9..10 "a"
                              WHITESPACE@10..11 " "
                              PLUS@11..12 "+"
                              WHITESPACE@12..13 " "
                              BIN_EXPR@13..18
                                NAME_REF@13..14
                                  IDENT@13..14 "b"
                                WHITESPACE@14..15 " "
                                STAR@15..16 "*"
                                WHITESPACE@16..17 " "
                                NAME_REF@17..18
                                  IDENT@17..18 "c"
                            WHITESPACE@18..19 " "
                            LT@19..20 "<"
                            WHITESPACE@20..21 " "
                            NAME_REF@21..22
                              IDENT@21..22 "d"
                          WHITESPACE@22..23 " "
                          AMP2@23..25 "&&"
                          WHITESPACE@25..26 " "
                          PREFIX_EXPR@26..28
                            BANG@26..27 "!"
                            NAME_REF@27..28
                              IDENT@27..28 "e"
                        WHITESPACE@28..29 " "
                        PIPE2@29..31 "||"
                        WHITESPACE@31..32 " "
                        NAME_REF@32..33
                          IDENT@32..33 "f"
                      WHITESPACE@33..34 " "
                      IMPLY_KW@34..39 "imply"
                      WHITESPACE@39..40 " "
                      NAME_REF@40..41
                        IDENT@40..41 "g"
                    WHITESPACE@41..42 " "
                    QUESTION@42..43 "?"
                    WHITESPACE@43..44 " "
                    NAME_REF@44..45
                      IDENT@44..45 "h"
                    WHITESPACE@45..46 " "
                    COLON@46..47 ":"
                    WHITESPACE@47..48 " "
                    NAME_REF@48..49
                      IDENT@48..49 "i"
                SEMICOLON@49..50 ";"
        "#]],
    );
}

#[test]
fn not_binds_looser_than_comparison() {
    check(
        "int x = not a == b and c;",
        expect![[r#"
        SOURCE_FILE@0..25
          VAR_DECL@0..25
            INT_TYPE@0..3
              INT_KW@0..3 "int"
            WHITESPACE@3..4 " "
            VAR_DECLARATOR@4..24
              NAME@4..5
                IDENT@4..5 "x"
              WHITESPACE@5..6 " "
              EQ@6..7 "="
              WHITESPACE@7..8 " "
              BIN_EXPR@8..24
                PREFIX_EXPR@8..18
                  NOT_KW@8..11 "not"
                  WHITESPACE@11..12 " "
                  BIN_EXPR@12..18
                    NAME_REF@12..13
                      IDENT@12..13 "a"
                    WHITESPACE@13..14 " "
                    EQ2@14..16 "=="
                    WHITESPACE@16..17 " "
                    NAME_REF@17..18
                      IDENT@17..18 "b"
                WHITESPACE@18..19 " "
                AND_KW@19..22 "and"
                WHITESPACE@22..23 " "
                NAME_REF@23..24
                  IDENT@23..24 "c"
            SEMICOLON@24..25 ";"
    "#]],
    );
}

#[test]
fn quantifier_body_extends_right() {
    check(
        "check q: A[] forall (i : T) i != j imply P(i).x;",
        expect![[r#"
        SOURCE_FILE@0..48
          CHECK@0..48
            CHECK_KW@0..5 "check"
            WHITESPACE@5..6 " "
            NAME@6..7
              IDENT@6..7 "q"
            COLON@7..8 ":"
            WHITESPACE@8..9 " "
            A_BOX@9..12 "A[]"
            WHITESPACE@12..13 " "
            QUANT_EXPR@13..47
              FORALL_KW@13..19 "forall"
              WHITESPACE@19..20 " "
              L_PAREN@20..21 "("
              NAME@21..22
                IDENT@21..22 "i"
              WHITESPACE@22..23 " "
              COLON@23..24 ":"
              WHITESPACE@24..25 " "
              NAMED_TYPE@25..26
                NAME_REF@25..26
                  IDENT@25..26 "T"
              R_PAREN@26..27 ")"
              WHITESPACE@27..28 " "
              BIN_EXPR@28..47
                BIN_EXPR@28..34
                  NAME_REF@28..29
                    IDENT@28..29 "i"
                  WHITESPACE@29..30 " "
                  NEQ@30..32 "!="
                  WHITESPACE@32..33 " "
                  NAME_REF@33..34
                    IDENT@33..34 "j"
                WHITESPACE@34..35 " "
                IMPLY_KW@35..40 "imply"
                WHITESPACE@40..41 " "
                FIELD_EXPR@41..47
                  CALL_EXPR@41..45
                    NAME_REF@41..42
                      IDENT@41..42 "P"
                    ARG_LIST@42..45
                      L_PAREN@42..43 "("
                      NAME_REF@43..44
                        IDENT@43..44 "i"
                      R_PAREN@44..45 ")"
                  DOT@45..46 "."
                  NAME_REF@46..47
                    IDENT@46..47 "x"
            SEMICOLON@47..48 ";"
    "#]],
    );
}

#[test]
fn missing_semicolon_recovers_at_next_item() {
    check(
        "int x = 1\nclock y;",
        expect![[r#"
        SOURCE_FILE@0..18
          VAR_DECL@0..9
            INT_TYPE@0..3
              INT_KW@0..3 "int"
            WHITESPACE@3..4 " "
            VAR_DECLARATOR@4..9
              NAME@4..5
                IDENT@4..5 "x"
              WHITESPACE@5..6 " "
              EQ@6..7 "="
              WHITESPACE@7..8 " "
              LITERAL@8..9
                INT_NUMBER@8..9 "1"
          WHITESPACE@9..10 "\n"
          VAR_DECL@10..18
            CLOCK_TYPE@10..15
              CLOCK_KW@10..15 "clock"
            WHITESPACE@15..16 " "
            VAR_DECLARATOR@16..17
              NAME@16..17
                IDENT@16..17 "y"
            SEMICOLON@17..18 ";"
        error 9..9: expected `;`, found `clock`
    "#]],
    );
}

#[test]
fn half_written_edge_keeps_the_next_edge() {
    check(
        "template P() {\n a -> \n b -> c;\n}",
        expect![[r#"
        SOURCE_FILE@0..32
          TEMPLATE@0..32
            TEMPLATE_KW@0..8 "template"
            WHITESPACE@8..9 " "
            NAME@9..10
              IDENT@9..10 "P"
            PARAM_LIST@10..12
              L_PAREN@10..11 "("
              R_PAREN@11..12 ")"
            WHITESPACE@12..13 " "
            TEMPLATE_BODY@13..32
              L_CURLY@13..14 "{"
              WHITESPACE@14..16 "\n "
              EDGE@16..20
                NAME_REF@16..17
                  IDENT@16..17 "a"
                WHITESPACE@17..18 " "
                ARROW@18..20 "->"
              WHITESPACE@20..23 " \n "
              EDGE@23..30
                NAME_REF@23..24
                  IDENT@23..24 "b"
                WHITESPACE@24..25 " "
                ARROW@25..27 "->"
                WHITESPACE@27..28 " "
                NAME_REF@28..29
                  IDENT@28..29 "c"
                SEMICOLON@29..30 ";"
              WHITESPACE@30..31 "\n"
              R_CURLY@31..32 "}"
        error 20..20: expected a target location, found a name
    "#]],
    );
}

#[test]
fn unclosed_template_body() {
    check(
        "template P() { init location a;\ncheck E<> true;",
        expect![[r#"
        SOURCE_FILE@0..47
          TEMPLATE@0..31
            TEMPLATE_KW@0..8 "template"
            WHITESPACE@8..9 " "
            NAME@9..10
              IDENT@9..10 "P"
            PARAM_LIST@10..12
              L_PAREN@10..11 "("
              R_PAREN@11..12 ")"
            WHITESPACE@12..13 " "
            TEMPLATE_BODY@13..31
              L_CURLY@13..14 "{"
              WHITESPACE@14..15 " "
              LOCATION@15..31
                INIT_KW@15..19 "init"
                WHITESPACE@19..20 " "
                LOCATION_KW@20..28 "location"
                WHITESPACE@28..29 " "
                NAME@29..30
                  IDENT@29..30 "a"
                SEMICOLON@30..31 ";"
          WHITESPACE@31..32 "\n"
          CHECK@32..47
            CHECK_KW@32..37 "check"
            WHITESPACE@37..38 " "
            E_DIAMOND@38..41 "E<>"
            WHITESPACE@41..42 " "
            LITERAL@42..46
              TRUE_KW@42..46 "true"
            SEMICOLON@46..47 ";"
        error 31..31: expected `}`, found `check`
    "#]],
    );
}

#[test]
fn comments_and_unknown_characters_stay_in_the_tree() {
    check(
        "// head\nclock /* c */ x; @",
        expect![[r#"
        SOURCE_FILE@0..26
          COMMENT@0..7 "// head"
          WHITESPACE@7..8 "\n"
          VAR_DECL@8..24
            CLOCK_TYPE@8..13
              CLOCK_KW@8..13 "clock"
            WHITESPACE@13..14 " "
            COMMENT@14..21 "/* c */"
            WHITESPACE@21..22 " "
            VAR_DECLARATOR@22..23
              NAME@22..23
                IDENT@22..23 "x"
            SEMICOLON@23..24 ";"
          WHITESPACE@24..25 " "
          ERROR@25..26 "@"
        error 25..26: unknown character `@`
    "#]],
    );
}
