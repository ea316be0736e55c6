using Comparator.Errors;
using Comparator.Measuring;
using Comparator.Statistics;

namespace Comparator.Running;

/// <summary>
/// What a cell's windows are, and all a <see cref="CellMeasurer"/> is told: the warm-up (the cold one for
/// a target's first cell), each window's length, how many rounds (<see cref="RepeatRule"/>), and how
/// each connection is used. <see cref="SteadyBound"/>: how much longer a .NET target's warm-up may go on
/// while its runtime still compiles (<see cref="CellMeasurer.SteadyJitMsPerSecond"/>); zero for none.
/// </summary>
public sealed record WindowSettings(TimeSpan Warmup, TimeSpan ColdWarmup, TimeSpan Duration, RepeatRule Rounds, bool KeepAlive, TimeSpan RequestTimeout)
{
    public TimeSpan SteadyBound { get; init; } = DefaultSteadyBound;

    /// <summary>
    /// Duet measurement (Bulej et al., ICPE 2020): every target of a cell loaded in the same window, side by side,
    /// instead of one after another; each window then shares the machine's swings with its twin's. The driver's
    /// CPU and the machine's figures of a window are then those of all sides together.
    /// </summary>
    public bool Duet { get; init; }

    /// <summary>What the CPU's counters count on every target (--counters, where this machine allows), decided once when the options were built.</summary>
    public CpuCounting CpuCounting { get; init; } = CpuCounting.Off;

    /// <summary>The events counted on the comparator's own process over each window (the driver's instructions), or null for none.</summary>
    public CpuCounterSet? DriverCpuCounters => CpuCounting.Available ? CpuCounterSet.Driver : null;

    /// <summary>
    /// The default bound of the warm-up's wait for a steady runtime: .NET 10's tiered compilation (tier-1 rejits,
    /// PGO's instrumented tier, OSR) was seen compiling 20 s into a load, the share of JIT in a kestrel's instructions
    /// falling from 32% after 3 s to 2.5% after 20 s.
    /// </summary>
    public static readonly TimeSpan DefaultSteadyBound = TimeSpan.FromSeconds(20);

    /// <summary>Seconds of load a cell puts on at the fewest rounds: its warm-up and its windows.</summary>
    public double CellSeconds => Warmup.TotalSeconds + Rounds.MinRepeat * Duration.TotalSeconds;

    /// <summary>Windows that measure something, warm-ups and bounds that are not negative, a timeout that can pass.</summary>
    public Validated<WindowSettings> Validate() =>
        Duration <= TimeSpan.Zero ? Validated<WindowSettings>.Refused("run: --duration is a positive time")
        : Warmup < TimeSpan.Zero || ColdWarmup < TimeSpan.Zero ? Validated<WindowSettings>.Refused("run: a warm-up is not negative")
        : SteadyBound < TimeSpan.Zero ? Validated<WindowSettings>.Refused("run: --steady-bound is not negative")
        : RequestTimeout <= TimeSpan.Zero ? Validated<WindowSettings>.Refused("run: --timeout is a positive time")
        : Rounds.MinRepeat < 1 || Rounds.MaxRepeat < Rounds.MinRepeat ? Validated<WindowSettings>.Refused("run: the rounds per launch are at least one, the cap at least the fewest")
        : Validated<WindowSettings>.Valid(this);
}
