namespace Comparator.Contracts
{
    /// <summary>Response content types, spelled once so every stack sends the same header bytes.</summary>
    public static class ContentTypes
    {
        public const string Text = "text/plain; charset=utf-8";
        public const string Json = "application/json; charset=utf-8";
        public const string Binary = "application/octet-stream";
    }
}
