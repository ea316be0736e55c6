using System;
using System.Collections.Generic;
using System.ServiceModel;
using System.ServiceModel.Channels;
using System.Threading;
using System.Threading.Tasks;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>
    /// A long-lived channel the dispatcher loops on: receive a request, invoke, Send the reply. The
    /// dispatcher serves one message per channel at a time (receive, invoke, send, then the next
    /// receive), so the channel holds the request being served and Send answers exactly that one.
    /// Operations must stay synchronous for this to hold (an async operation would let the dispatcher
    /// receive again before the reply is sent).
    /// </summary>
    internal sealed class ListenerDuplexChannel : ChannelBase, IDuplexChannel
    {
        private static readonly EndpointAddress Anonymous = new EndpointAddress(EndpointAddress.AnonymousUri);
        private readonly ListenerChannelListener _listener;
        private PendingRequest? _current;

        public ListenerDuplexChannel(ListenerChannelListener listener) : base(listener)
        {
            _listener = listener;
            LocalAddress = new EndpointAddress(listener.Uri);
        }

        public EndpointAddress LocalAddress { get; }
        public EndpointAddress RemoteAddress => Anonymous;
        public Uri Via => _listener.Uri;

        public override T GetProperty<T>()
        {
            if (typeof(T) == typeof(MessageVersion)) return (T)(object)_listener.Encoder.MessageVersion;
            return base.GetProperty<T>();
        }

        /// <summary>
        /// Waits for the next request however long it takes (the receive timeout is ignored: timing out
        /// would make the dispatcher close this channel and pay 100 ms to accept a new one). False at close.
        /// </summary>
        private async Task<Message?> ReceiveAsync()
        {
            // A request the dispatcher never answered (an error outside the operation) still gets an answer.
            var unanswered = Interlocked.Exchange(ref _current, null);
            if (unanswered != null) ReplyWriter.Unanswered(unanswered.Context, _listener.Encoder);
            while (true)
            {
                var request = await _listener.DequeueAsync().ConfigureAwait(false);
                if (request == null) return null;
                try
                {
                    if (_listener.Documents != null && request.DocumentQuery() is string query)
                    {
                        AnswerDocument(request, _listener.Documents, query);
                        continue;
                    }
                    var refusal = request.SoapRefusal(_listener.Encoder);
                    if (refusal != null)
                    {
                        ReplyWriter.Finish(request.Context.Response, refusal.Value);
                        continue;
                    }
                    var message = request.ToMessage(_listener.Encoder);
                    _current = request;
                    return message;
                }
                catch (Exception)
                {
                    ReplyWriter.Finish(request.Context.Response, System.Net.HttpStatusCode.BadRequest);
                }
            }
        }

        /// <summary>A GET of a published document: the document, 404 for one not published, 500 when making them failed.</summary>
        private static void AnswerDocument(PendingRequest request, Lazy<IReadOnlyDictionary<string, byte[]>> documents, string query)
        {
            byte[]? document;
            try { documents.Value.TryGetValue(query, out document); }
            catch (Exception) { ReplyWriter.Finish(request.Context.Response, System.Net.HttpStatusCode.InternalServerError); return; }
            if (document != null) ReplyWriter.Document(request.Context.Response, document);
            else ReplyWriter.Finish(request.Context.Response, System.Net.HttpStatusCode.NotFound);
        }

        public void Send(Message message) => Send(message, DefaultSendTimeout);

        public void Send(Message message, TimeSpan timeout)
        {
            var request = Interlocked.Exchange(ref _current, null);
            if (request != null) ReplyWriter.Write(request.Context, message, _listener.Encoder);
        }

        public IAsyncResult BeginSend(Message message, AsyncCallback callback, object state) => BeginSend(message, DefaultSendTimeout, callback, state);
        public IAsyncResult BeginSend(Message message, TimeSpan timeout, AsyncCallback callback, object state) { Send(message, timeout); return Apm.Done(callback, state); }
        public void EndSend(IAsyncResult result) => Apm.End<bool>(result);

        public Message Receive() => Receive(DefaultReceiveTimeout);
        public Message Receive(TimeSpan timeout) => ReceiveAsync().GetAwaiter().GetResult() ?? throw new CommunicationObjectAbortedException("the listener closed");
        public IAsyncResult BeginReceive(AsyncCallback callback, object state) => BeginReceive(DefaultReceiveTimeout, callback, state);
        public IAsyncResult BeginReceive(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Begin(ReceiveAsync(), callback, state);
        public Message EndReceive(IAsyncResult result) => Apm.End<Message?>(result) ?? throw new CommunicationObjectAbortedException("the listener closed");

        public bool TryReceive(TimeSpan timeout, out Message message)
        {
            message = ReceiveAsync().GetAwaiter().GetResult()!;
            return message != null;
        }

        public IAsyncResult BeginTryReceive(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Begin(ReceiveAsync(), callback, state);

        public bool EndTryReceive(IAsyncResult result, out Message message)
        {
            message = Apm.End<Message?>(result)!;
            return message != null;
        }

        public bool WaitForMessage(TimeSpan timeout) => true;
        public IAsyncResult BeginWaitForMessage(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Begin(Task.FromResult(true), callback, state);
        public bool EndWaitForMessage(IAsyncResult result) => Apm.End<bool>(result);

        protected override void OnAbort() { }
        protected override void OnClose(TimeSpan timeout) { }
        protected override IAsyncResult OnBeginClose(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Done(callback, state);
        protected override void OnEndClose(IAsyncResult result) => Apm.End<bool>(result);
        protected override void OnOpen(TimeSpan timeout) { }
        protected override IAsyncResult OnBeginOpen(TimeSpan timeout, AsyncCallback callback, object state) => Apm.Done(callback, state);
        protected override void OnEndOpen(IAsyncResult result) => Apm.End<bool>(result);
    }
}
