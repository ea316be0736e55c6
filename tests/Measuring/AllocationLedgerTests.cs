using System;
using Comparator.Measuring;
using Xunit;

namespace Comparator.Tests;

/// <summary>
/// The allocation ledger's cut at a window's edges, on made-up readings: the total's samples give the bytes, the ticks place an
/// interval's growth about an edge, the clock places it where too few ticks came, and no figure where no reading brackets an edge.
/// </summary>
public sealed class AllocationLedgerTests
{
    private static readonly DateTimeOffset T0 = new(2026, 11, 28, 12, 0, 0, TimeSpan.Zero);
    private static DateTimeOffset Ms(double ms) => T0.AddMilliseconds(ms);

    /// <summary>Totals every 100 ms of <paramref name="perInterval"/> bytes each, with ten ticks an interval spread evenly, from 0 to <paramref name="untilMs"/>.</summary>
    private static AllocationLedger Steady(long perInterval, int untilMs)
    {
        var ledger = new AllocationLedger();
        for (var ms = 0; ms <= untilMs; ms += 100)
        {
            ledger.Total(Ms(ms), perInterval * (ms / 100));
            if (ms > 0) for (var k = 0; k < 10; k++) ledger.Tick(Ms(ms - 100 + 10 * k + 5), perInterval * 12 / 10 / 10); // ticks overcount by a fifth
        }
        return ledger;
    }

    [Fact]
    public void Edges_on_readings_take_the_readings_difference_and_not_the_ticks()
    {
        var work = Steady(1_000_000, 1000).Between(Ms(200), Ms(700))!.Value;
        Assert.Equal(5_000_000, work.AllocatedBytes); // the ticks' sum would be 6,000,000
    }

    [Fact]
    public void An_edge_inside_an_interval_takes_the_share_its_ticks_place_before_it()
    {
        // 250 ms is past 5 of the interval's 10 ticks (at 205, 215, ... 245): half of its growth.
        var work = Steady(1_000_000, 1000).Between(Ms(250), Ms(700))!.Value;
        Assert.Equal(4_500_000, work.AllocatedBytes);
    }

    [Fact]
    public void Load_that_stops_inside_an_interval_is_counted_whole_because_the_ticks_say_when_it_happened()
    {
        var ledger = Steady(1_000_000, 500);
        // From 500 ms on, allocation only in the first 20 ms of the interval to 600 (the window ends at 520, then the process idles).
        ledger.Total(Ms(600), 6_000_000);
        for (var k = 0; k < 5; k++) ledger.Tick(Ms(502 + 3 * k), 240_000);
        ledger.Total(Ms(700), 6_000_000);
        var work = ledger.Between(Ms(300), Ms(520))!.Value;
        Assert.Equal(3_000_000, work.AllocatedBytes); // the clock's share would have said 2,200,000
    }

    [Fact]
    public void An_interval_with_too_few_ticks_is_shared_by_the_clock()
    {
        var ledger = new AllocationLedger();
        ledger.Total(Ms(0), 0);
        ledger.Total(Ms(100), 40_000);
        ledger.Tick(Ms(90), 100_000); // one tick, fewer than TicksToPlace: it cannot say where the 40 KB fell
        ledger.Total(Ms(200), 80_000);
        Assert.Equal(20_000 + 40_000, ledger.Between(Ms(50), Ms(200))!.Value.AllocatedBytes);
    }

    [Fact]
    public void No_figure_where_no_reading_comes_after_the_end_or_before_the_start()
    {
        var ledger = Steady(1_000, 500);
        Assert.Null(ledger.Between(Ms(100), Ms(650)));
        Assert.Null(ledger.Between(Ms(-50), Ms(300)));
        Assert.Null(new AllocationLedger().Between(Ms(0), Ms(1)));
    }

    [Fact]
    public void Collections_are_those_started_inside_the_edges()
    {
        var ledger = Steady(1_000, 1000);
        foreach (var ms in new[] { 150, 300, 300.5, 699, 701 }) ledger.CollectionStarted(Ms(ms));
        Assert.Equal(3, ledger.Between(Ms(150), Ms(700))!.Value.Collections); // 150 is the start edge itself: (start, end]
    }

    [Fact]
    public void A_better_source_of_totals_replaces_the_totals_read_before_it()
    {
        var ledger = Steady(1_000, 300);
        ledger.ForgetTotals();
        Assert.Null(ledger.Between(Ms(100), Ms(200)));
        Assert.Null(ledger.NewestTotal);
    }
}
