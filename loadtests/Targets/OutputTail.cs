namespace Comparator.Targets;

/// <summary>Keeps the last few lines of a child's output stream, for error messages.</summary>
internal sealed class OutputTail
{
    private readonly int _maxLines;
    private readonly Queue<string> _lines = new();

    public OutputTail(int maxLines = 20) => _maxLines = maxLines;

    public void Add(string line)
    {
        lock (_lines)
        {
            _lines.Enqueue(line);
            if (_lines.Count > _maxLines) _lines.Dequeue();
        }
    }

    public IReadOnlyList<string> Lines
    {
        get { lock (_lines) return _lines.ToArray(); }
    }
}
