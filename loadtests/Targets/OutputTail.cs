namespace Comparator.Targets;

/// <summary>Keeps the last few lines of a child's output stream, for error messages.</summary>
internal sealed class OutputTail
{
    private const int MaxLines = 20;
    private readonly Queue<string> _lines = new();

    public void Add(string line)
    {
        lock (_lines)
        {
            _lines.Enqueue(line);
            if (_lines.Count > MaxLines) _lines.Dequeue();
        }
    }

    public IReadOnlyList<string> Lines
    {
        get { lock (_lines) return _lines.ToArray(); }
    }
}
