// Shared test data.

export const r = (line: number, from: number, to: number) => ({
  start: { line, character: from },
  end: { line, character: to },
});

/** A response in the documented shape of `zeno/errorTrace`. */
export const response = {
  check: "mutex",
  verdict: "violated",
  steps: [
    {
      index: 1,
      delay: "0",
      edges: [{ process: "P(1)", source: "idle", target: "req", range: r(10, 4, 40) }],
      state: { locations: { "P(1)": "req", "P(2)": "idle" }, variables: { id: 0 }, clocks: { "P(1).x": "0" } },
    },
    {
      index: 2,
      delay: "3/2",
      edges: [
        { process: "P(1)", source: "req", target: "wait", range: r(11, 4, 30) },
        { process: "P(2)", source: "idle", target: "req", range: r(10, 4, 40) },
      ],
      state: { locations: { "P(1)": "wait", "P(2)": "req" }, variables: { id: 1 }, clocks: { "P(1).x": "3/2" } },
    },
    {
      index: 3,
      delay: "2",
      edges: [{ process: "P(1)", source: "wait", target: "cs", range: r(13, 4, 25) }],
      state: { locations: { "P(1)": "cs", "P(2)": "req" }, variables: { id: 1 }, clocks: { "P(1).x": "2" } },
    },
  ],
};

