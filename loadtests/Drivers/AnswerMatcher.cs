using System.Buffers;

namespace Comparator.Drivers;

/// <summary>
/// Checks one answer as its body arrives, piece by piece, against what the request says a correct
/// answer is: for the contract's endpoints a 2xx status and the expected bytes (or length and
/// prefix) compared in place; for a scenario's operation, its rule on the whole body, which is then
/// buffered. One per connection, reused for every answer, so checking allocates nothing per request
/// on the contract's cells.
/// </summary>
internal sealed class AnswerMatcher
{
    private readonly LoadRequest _request;
    private readonly ArrayBufferWriter<byte>? _whole;
    private int _status;
    private long _length;
    private bool _matches;

    public AnswerMatcher(LoadRequest request)
    {
        _request = request;
        if (request.AnswerCheck is not null) _whole = new ArrayBufferWriter<byte>(4096);
    }

    /// <summary>Body bytes of the answer so far.</summary>
    public long Length => _length;

    public void Start(int status)
    {
        _status = status;
        _length = 0;
        _matches = true;
        _whole?.ResetWrittenCount();
    }

    public void Feed(ReadOnlySpan<byte> piece)
    {
        if (_whole is not null) _whole.Write(piece);
        else if (_matches) _matches = Matches(piece, _length);
        _length += piece.Length;
    }

    /// <summary>Null when the answer is correct, else what was wrong; <paramref name="non2xx"/> when a wrong answer's status was outside 2xx.</summary>
    public string? Finish(out bool non2xx)
    {
        var outside = _status is < 200 or > 299;
        if (_request.AnswerCheck is { } check)
        {
            var problem = check(_status, _whole!.WrittenSpan.ToArray());
            non2xx = problem is not null && outside;
            return problem;
        }
        non2xx = outside;
        if (outside) return "status " + _status;
        if (_request.ExpectedLength is int expected && _length != expected) return $"body of {_length} bytes, expected {expected}";
        return _matches ? null : "body differs from what the contract says";
    }

    /// <summary>Compares a piece of the body at an offset with the expected bytes (or prefix).</summary>
    private bool Matches(ReadOnlySpan<byte> chunk, long offset)
    {
        var reference = _request.ExpectedBody ?? _request.ExpectedPrefix;
        if (reference is null || offset >= reference.Length) return _request.ExpectedBody is null || chunk.Length == 0;
        var overlap = (int)Math.Min(chunk.Length, reference.Length - offset);
        if (!chunk[..overlap].SequenceEqual(reference.AsSpan((int)offset, overlap))) return false;
        return _request.ExpectedBody is null || chunk.Length == overlap;
    }
}
