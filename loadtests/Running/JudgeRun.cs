using Comparator.Results;

namespace Comparator.Running;

/// <summary>
/// The question the launch loop asks after a launch (the sequential design's look: which cells are not
/// settled yet) and once at the end (the verdicts results.json keeps): the verdicts on the run as measured
/// so far. Running owns the question and never names who answers it; the commands pass the one rule's
/// answer in (Comparing's PairVerdicts.Build), so the look and the stored verdicts are judged alike.
/// </summary>
public delegate IReadOnlyList<CellVerdict> JudgeRun(RunResult run);
