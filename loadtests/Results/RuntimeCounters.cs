namespace Comparator.Results;

/// <summary>
/// The .NET runtime's own counters over one measured window of a .NET target (the "System.Runtime"
/// counters dotnet-counters shows, read through EventPipe at one sample a second). Thread counts and
/// queue lengths are the samples' values; the rest are totals or rates over the samples in the window.
/// </summary>
/// <param name="Samples">one-second samples that fell inside the window</param>
/// <param name="ThreadPoolThreadsAtStart">thread-pool threads in the window's first sample</param>
/// <param name="ThreadPoolThreadsAtEnd">thread-pool threads in its last sample</param>
/// <param name="ThreadPoolQueueLengthMedian">work items queued and waiting for a thread, median sample</param>
/// <param name="TimeInGcPercent">percentage of time spent in GC since the previous GC, mean sample</param>
/// <param name="JitMsPerSecond">milliseconds the runtime spent compiling methods per second of the window ("time-in-jit"); null where the runtime did not publish it</param>
/// <param name="MethodsJitted">methods compiled in the window (tier-0, tier-1 rejits, OSR), from "methods-jitted-count"; null where not published</param>
public sealed record RuntimeCounters(
    int Samples,
    double ThreadPoolThreadsAtStart,
    double ThreadPoolThreadsAtEnd,
    double ThreadPoolThreadsMax,
    double ThreadPoolQueueLengthMedian,
    double ThreadPoolQueueLengthMax,
    double ThreadPoolCompletedItemsPerSecond,
    double Gen0Collections,
    double Gen1Collections,
    double Gen2Collections,
    double TimeInGcPercent,
    double AllocatedBytesPerSecond,
    double LockContentionsPerSecond,
    double? JitMsPerSecond = null,
    double? MethodsJitted = null)
{
    /// <summary>Threads the pool added between the window's first sample and its highest.</summary>
    public double ThreadsInjected => ThreadPoolThreadsMax - ThreadPoolThreadsAtStart;
}
