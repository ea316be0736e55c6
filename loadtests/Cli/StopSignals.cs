using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Cli;

/// <summary>
/// Turns the first Ctrl+C or SIGTERM into a cancellation instead of an abrupt exit, so a command can
/// stop its targets and write what it has. Later signals are absorbed too: the stop is already under way.
/// </summary>
public sealed class StopSignals : IDisposable
{
    private readonly CancellationTokenSource _stop = new();
    private readonly PosixSignalRegistration _onInt;
    private readonly PosixSignalRegistration _onTerm;

    public StopSignals(string command, string whatHappens)
    {
        void OnSignal(PosixSignalContext context)
        {
            context.Cancel = true;
            if (_stop.IsCancellationRequested) return;
            Console.Error.WriteLine($"{command}: {context.Signal}: {whatHappens}");
            // Not Cancel(): that runs every registered callback (open requests, timers) on the
            // signal thread, and one that throws there would take the process down mid-stop.
            _ = _stop.CancelAsync().ContinueWith(t => _ = t.Exception, TaskContinuationOptions.OnlyOnFaulted);
        }
        _onInt = PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal);
        _onTerm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal);
    }

    public CancellationToken Token => _stop.Token;

    public void Dispose()
    {
        _onInt.Dispose();
        _onTerm.Dispose();
        _stop.Dispose();
    }
}
