using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net;
using System.ServiceModel.Channels;
using System.Threading;
using System.Threading.Tasks;
using Comparator.Contracts;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>
    /// Owns the HttpListener. Its accept loop takes each request, refuses an oversize body (413),
    /// reads the body asynchronously and queues the request; the duplex channels take requests from
    /// that queue. A slow or stalled client therefore holds a socket, never a channel.
    /// </summary>
    internal sealed class ListenerChannelListener : ChannelListenerBase<IDuplexChannel>
    {
        private readonly ListenerTransportBindingElement _element;
        private readonly Uri _uri;
        private readonly ConcurrentQueue<PendingRequest> _queue = new ConcurrentQueue<PendingRequest>();
        private readonly SemaphoreSlim _queued = new SemaphoreSlim(0);
        private readonly CancellationTokenSource _closing = new CancellationTokenSource();
        private HttpListener? _http;
        private int _channelsCreated;

        public ListenerChannelListener(ListenerTransportBindingElement element, BindingContext context) : base(context.Binding)
        {
            _element = element;
            // Mono's WebMessageEncodingBindingElement does not put itself in BindingParameters (.NET's does): look in the binding too.
            var encoding = context.BindingParameters.Remove<MessageEncodingBindingElement>()
                ?? context.Binding.Elements.Find<MessageEncodingBindingElement>()
                ?? throw new InvalidOperationException("the binding needs a message encoding (WebMessageEncodingBindingElement, or TextMessageEncodingBindingElement for SOAP)");
            Encoder = encoding.CreateMessageEncoderFactory().Encoder;
            _uri = new Uri(context.ListenUriBaseAddress, context.ListenUriRelativeAddress);
        }

        public MessageEncoder Encoder { get; }
        public ServiceOptions Options => _element.Options;
        public Lazy<IReadOnlyDictionary<string, byte[]>>? Documents => _element.Documents;
        public long MaxBodyBytes => _element.MaxReceivedMessageSize;
        public ManualResetEventSlim AllChannelsAccepted { get; } = new ManualResetEventSlim();
        public override Uri Uri => _uri;

        public override T GetProperty<T>()
        {
            if (typeof(T) == typeof(MessageVersion)) return (T)(object)Encoder.MessageVersion;
            return base.GetProperty<T>();
        }

        protected override void OnOpen(TimeSpan timeout)
        {
            var http = new HttpListener { IgnoreWriteExceptions = true };
            http.Prefixes.Add(_uri.AbsoluteUri.TrimEnd('/') + "/");
            http.Start(); // HttpListenerException / SocketException when the port is taken: the host maps it to exit 3
            _http = http;
            // Started here, not through Task.Run: the opening thread is the host's main thread, which then
            // waits for the life of the service, and must not leave a pool queue segment on its stack
            // (see Apm.BeginOffPool). The loop runs on this thread only until its first await.
            // One loop, unlike ListenerService's 5 per core: this loop only reads the body and queues the
            // request for a channel, so it never runs the framework inline. 5 per core measured no better
            // here and slower on one core (docs/findings.md, "The cores").
            _ = AcceptLoopAsync();
        }

        private async Task AcceptLoopAsync()
        {
            var http = _http!;
            while (!_closing.IsCancellationRequested)
            {
                HttpListenerContext context;
                try
                {
                    context = await http.GetContextAsync().ConfigureAwait(false);
                }
                catch (Exception) when (_closing.IsCancellationRequested)
                {
                    return;
                }
                catch (Exception e) when (e is HttpListenerException || e is InvalidOperationException || e is System.IO.IOException)
                {
                    continue; // a connection that failed before a request was read; keep serving
                }
                _ = IntakeAsync(context);
            }
        }

        private async Task IntakeAsync(HttpListenerContext context)
        {
            try
            {
                if (!Options.ServerHeader) context.Response.Headers.Set(HttpResponseHeader.Server, "");
                var body = await PendingRequest.ReadBodyAsync(context, MaxBodyBytes).ConfigureAwait(false);
                if (body == null) { ReplyWriter.RefuseTooLarge(context.Response); return; }
                _queue.Enqueue(new PendingRequest(context, body));
                _queued.Release();
            }
            catch (Exception)
            {
                // A client that went away mid-body or sent a broken one: drop that connection only.
                ReplyWriter.Abort(context.Response);
            }
        }

        /// <summary>The next queued request; null once the listener closes.</summary>
        public async Task<PendingRequest?> DequeueAsync()
        {
            while (true)
            {
                try
                {
                    await _queued.WaitAsync(_closing.Token).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return null;
                }
                if (_queue.TryDequeue(out var request)) return request;
            }
        }

        /// <summary>Hands out ChannelCount channels; after that, waits until close (then null, which ends the dispatcher's accepting).</summary>
        private async Task<IDuplexChannel?> AcceptAsync()
        {
            var number = Interlocked.Increment(ref _channelsCreated);
            if (number <= _element.ChannelCount)
            {
                if (number == _element.ChannelCount) AllChannelsAccepted.Set();
                return new ListenerDuplexChannel(this);
            }
            try { await Task.Delay(Timeout.Infinite, _closing.Token).ConfigureAwait(false); }
            catch (OperationCanceledException) { }
            return null;
        }

        protected override IDuplexChannel OnAcceptChannel(TimeSpan timeout) => AcceptAsync().GetAwaiter().GetResult()!;
        // Called on Mono WCF's listener-loop thread, which then blocks for good: see Apm.BeginOffPool.
        protected override IAsyncResult OnBeginAcceptChannel(TimeSpan timeout, AsyncCallback callback, object state) => Apm.BeginOffPool(AcceptAsync(), callback, state);
        protected override IDuplexChannel OnEndAcceptChannel(IAsyncResult result) => Apm.End<IDuplexChannel?>(result)!;

        protected override bool OnWaitForChannel(TimeSpan timeout) => _channelsCreated < _element.ChannelCount;
        protected override IAsyncResult OnBeginWaitForChannel(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Begin(Task.FromResult(OnWaitForChannel(timeout)), callback, state);
        protected override bool OnEndWaitForChannel(IAsyncResult result) => Apm.End<bool>(result);

        protected override void OnClose(TimeSpan timeout) => Shutdown();
        protected override void OnAbort() => Shutdown();
        protected override IAsyncResult OnBeginClose(TimeSpan timeout, AsyncCallback callback, object state) { Shutdown(); return Apm.Done(callback, state); }
        protected override void OnEndClose(IAsyncResult result) => Apm.End<bool>(result);
        protected override IAsyncResult OnBeginOpen(TimeSpan timeout, AsyncCallback callback, object state) { OnOpen(timeout); return Apm.Done(callback, state); }
        protected override void OnEndOpen(IAsyncResult result) => Apm.End<bool>(result);

        private void Shutdown()
        {
            if (_closing.IsCancellationRequested) return;
            _closing.Cancel();
            var http = Interlocked.Exchange(ref _http, null);
            if (http == null) return;
            try { http.Stop(); } catch (ObjectDisposedException) { }
            http.Close();
        }
    }
}
