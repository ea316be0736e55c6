using System;
using System.Threading;
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
                CopyOutcome(t, completion);
                callback?.Invoke(completion.Task);
            }, TaskScheduler.Default);
            return completion.Task;
        }

        /// <summary>
        /// Begin for a caller whose thread must not touch the thread pool: Mono WCF's listener loop, which
        /// calls BeginAcceptChannel and then blocks for the life of the host. Queuing a work item leaves a
        /// reference to the pool's current queue segment in that thread's stack; Mono scans stacks
        /// conservatively and each segment links to the next, so from then on every segment the pool ever
        /// allocates stays reachable (about 9 bytes per queued item, a few items per request: unbounded
        /// growth under load). A finished task's callback therefore runs on a short-lived thread of its own,
        /// whose stack is gone when the callback returns; an unfinished one only registers a continuation.
        /// </summary>
        public static IAsyncResult BeginOffPool<T>(Task<T> task, AsyncCallback? callback, object? state)
        {
            if (!task.IsCompleted) return Begin(task, callback, state);
            var completion = new TaskCompletionSource<T>(state);
            var thread = new Thread(() =>
            {
                CopyOutcome(task, completion);
                callback?.Invoke(completion.Task);
            }) { IsBackground = true, Name = "channel accepted" };
            thread.Start();
            return completion.Task;
        }

        private static void CopyOutcome<T>(Task<T> task, TaskCompletionSource<T> completion)
        {
            if (task.IsFaulted) completion.TrySetException(task.Exception!.InnerExceptions);
            else if (task.IsCanceled) completion.TrySetCanceled();
            else completion.TrySetResult(task.Result);
        }

        public static T End<T>(IAsyncResult result) => ((Task<T>)result).GetAwaiter().GetResult();

        public static IAsyncResult Done(AsyncCallback? callback, object? state) => Begin(Task.FromResult(true), callback, state);
    }
}
