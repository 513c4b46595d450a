-- Never a victim (legal: "none now"): fills wait forever.
return { victim = function() return false end }
