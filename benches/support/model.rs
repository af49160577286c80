//! The generated ~5,000-line model the frontend and language-server
//! benchmarks share: 80 templates of 8 locations and 16 edges, `select` on
//! half the edges. `model(b)` differs from `model(5)` only in one
//! template's invariant bound, a one-character edit when `b` has one digit.

pub const TEMPLATES: usize = 80;

fn template(k: usize, bound: usize) -> String {
    let mut s =
        format!("template T{k}(const pid_t pid) {{\n    clock x, y;\n    int[0, 9] count;\n");
    for l in 0..8 {
        let init = if l == 0 { "init " } else { "" };
        s += &format!("    {init}location l{l} invariant x <= {bound};\n");
    }
    for l in 0..8 {
        let next = (l + 1) % 8;
        s += &format!(
            "    l{l} -> l{next}\n        select i : int[0, 2]\n        when x >= 1 && y < 20 && id == 0 && g[i] < 3\n        sync c[pid - 1]!\n        do x = 0, id = pid, g[i] = i, count = (count + 1) % 10;\n"
        );
        s += &format!("    l{l} -> l{l} when id == pid sync c[pid - 1]? do id = 0, y = 0;\n");
    }
    s += "}\n\n";
    s
}

pub fn model(edited_bound: usize) -> String {
    let mut s = String::from(
        "const int N = 2;\ntypedef int[1, N] pid_t;\nint[0, N] id;\nint[0, 3] g[3];\nchan c[N];\n\n",
    );
    for k in 0..TEMPLATES {
        s += &template(k, if k == TEMPLATES / 2 { edited_bound } else { 5 });
    }
    let names: Vec<String> = (0..TEMPLATES).map(|k| format!("T{k}")).collect();
    s += &format!("system {};\n", names.join(", "));
    s += "check reach: E<> T0(1).l3 && T1(2).count == 4;\ncheck safe: A[] !deadlock;\n";
    s
}
