-- No CTA may ever be resident.
return { limit = function() return 0 end }
