namespace Comparator.Running;

/// <summary>What the run reports while it goes: which cell, and how much is left.</summary>
public interface IRunProgress
{
    void Message(string line);
    void CellStarted(int index, int total, string label, double secondsLeft);
    void CellFinished(string label, string outcome);
}
