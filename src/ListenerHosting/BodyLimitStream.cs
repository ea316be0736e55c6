using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.ListenerHosting
{
    /// <summary>
    /// A request body as the framework reads it, cut off past the body limit. A declared length over the
    /// limit is refused before this is ever read; a chunked body has no declared length, so this is
    /// where it is caught: the read fails, and the host answers 413 instead of what the framework made of it.
    /// </summary>
    public sealed class BodyLimitStream : Stream
    {
        private readonly Stream _inner;
        private readonly long _limit;
        private long _read;

        public BodyLimitStream(Stream inner, long limit) { _inner = inner; _limit = limit; }

        public bool Exceeded { get; private set; }

        public override int Read(byte[] buffer, int offset, int count) => Count(_inner.Read(buffer, offset, count));

        public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
            Count(await _inner.ReadAsync(buffer, offset, count, cancellationToken).ConfigureAwait(false));

        private int Count(int n)
        {
            _read += n;
            if (_read <= _limit) return n;
            Exceeded = true;
            throw new IOException("request body over the limit of " + _limit + " bytes");
        }

        public override bool CanRead => true;
        public override bool CanSeek => false;
        public override bool CanWrite => false;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => _read; set => throw new NotSupportedException(); }
        public override void Flush() { }
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    }
}
