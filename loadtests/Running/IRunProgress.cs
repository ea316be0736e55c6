namespace Comparator.Running;

/// <summary>What the run reports while it goes: which cell, and how much is left.</summary>
public interface IRunProgress
{
    void Message(string line);
    void CellStarted(int index, int total, string label, double secondsLeft);
    void CellFinished(string label, string outcome);
    /// <summary>A round of the cell (one window per target) is done; <paramref name="repeats"/> so far, with each target's CV.</summary>
    void RoundFinished(string label, int repeats, string detail) { }
}
