using System;
using System.Threading.Tasks;

namespace Comparator.WcfClassicService.Transport
{
    /// <summary>Task to Begin/End (the channel model's async pattern).</summary>
    internal static class Apm
    {
        /// <summary>
        /// The callback runs on a pool thread, never inline in whoever completed the task: the
        /// dispatcher runs the whole operation and its reply inside that callback, and it must not run
        /// on the HttpListener accept loop that queued the request.
        /// </summary>
        public static IAsyncResult Begin<T>(Task<T> task, AsyncCallback? callback, object? state)
        {
            var completion = new TaskCompletionSource<T>(state);
            task.ContinueWith(t =>
            {
                if (t.IsFaulted) completion.TrySetException(t.Exception!.InnerExceptions);
                else if (t.IsCanceled) completion.TrySetCanceled();
                else completion.TrySetResult(t.Result);
                callback?.Invoke(completion.Task);
            }, TaskScheduler.Default);
            return completion.Task;
        }

        public static T End<T>(IAsyncResult result) => ((Task<T>)result).GetAwaiter().GetResult();

        public static IAsyncResult Done(AsyncCallback? callback, object? state) => Begin(Task.FromResult(true), callback, state);
    }
}
