using System;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.Wire;

/// <summary>A small buffered reader of lines and exact byte counts that also counts what it consumed.</summary>
internal sealed class ByteReader
{
    private readonly Stream _stream;
    private readonly byte[] _buffer = new byte[16 * 1024];
    private int _start;
    private int _end;

    public ByteReader(Stream stream) => _stream = stream;

    /// <summary>Bytes handed out so far (lines with their CRLF, and body bytes).</summary>
    public long Consumed { get; private set; }

    /// <summary>A CRLF-terminated line without its CRLF, or null at end of stream.</summary>
    public async Task<string?> ReadLineAsync(CancellationToken cancellationToken)
    {
        var line = new StringBuilder();
        while (true)
        {
            if (_start == _end && !await FillAsync(cancellationToken)) return line.Length == 0 ? null : throw new IOException("connection closed mid-line");
            var b = _buffer[_start++];
            Consumed++;
            if (b == '\n')
            {
                if (line.Length > 0 && line[^1] == '\r') line.Length--;
                return line.ToString();
            }
            line.Append((char)b);
            if (line.Length > 64 * 1024) throw new IOException("line longer than 64 KiB");
        }
    }

    public async Task<byte[]> ReadExactlyAsync(int count, CancellationToken cancellationToken)
    {
        var result = new byte[count];
        var filled = 0;
        while (filled < count)
        {
            if (_start == _end && !await FillAsync(cancellationToken))
                throw new IOException($"connection closed after {filled} of {count} body bytes");
            var n = Math.Min(count - filled, _end - _start);
            Buffer.BlockCopy(_buffer, _start, result, filled, n);
            _start += n;
            filled += n;
            Consumed += n;
        }
        return result;
    }

    public async Task<byte[]> ReadToEndAsync(CancellationToken cancellationToken)
    {
        using var all = new MemoryStream();
        do
        {
            all.Write(_buffer, _start, _end - _start);
            Consumed += _end - _start;
            _start = _end;
        } while (await FillAsync(cancellationToken));
        return all.ToArray();
    }

    private async Task<bool> FillAsync(CancellationToken cancellationToken)
    {
        _start = 0;
        _end = await _stream.ReadAsync(_buffer, cancellationToken);
        return _end > 0;
    }
}
