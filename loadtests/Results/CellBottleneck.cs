
namespace Comparator.Results;

/// <summary>
/// What bounded a cell, from what was measured: the server's and the driver's CPU over the window,
/// the cores the cell could use (its concurrency, at most the machine's), and Little's law (the time
/// a request spends in flight is concurrency ÷ requests/s). A cell that kept the cores it could use
/// less than half busy, while each request spent far longer in flight than it cost in CPU, waited on
/// something that is not computation: a timer, a delayed ACK, a lock, a starved pool.
/// </summary>
/// <param name="Kind">machine, client, wait, server; unknown where the server's CPU is not the comparator's to read</param>
/// <param name="CoresBusy">server plus driver CPU seconds per second of the window (median repeat by busy share); the server's alone where it ran on a machine of its own (crank, separate agents)</param>
/// <param name="BusyShare">CoresBusy over the cores the cell could keep busy: min(concurrency, logical cores of the server's machine)</param>
/// <param name="InFlightMs">concurrency ÷ requests/s: how long each request was in flight (Little's law)</param>
/// <param name="CpuUsPerRequest">server plus driver CPU per successful request</param>
public sealed record CellBottleneck(string Kind, double? CoresBusy, double? BusyShare, double? InFlightMs, double? CpuUsPerRequest)
{
    public const string Machine = "machine";
    public const string Client = "client";
    public const string Wait = "wait";
    public const string Server = "server";
    public const string Unknown = "unknown";
    public const string Rate = "rate";

    /// <summary>The one-line reading of the kind, for reports.</summary>
    public static string Meaning(string kind) => kind switch
    {
        Machine => "every core was busy: driver and server together, or with other processes where the cell is flagged contended",
        Client => "the driver used a core or more: it set the pace",
        Wait => "the cores it could use were less than half busy: a wait set the pace, not computation",
        Server => "the server's work set the pace",
        Rate => "the asked rate set the pace (a fixed-rate cell that kept up): its figures are the cost and the wait at that load",
        _ => "the server's CPU is not read (external target): only the driver's side is known",
    };
}
