-- One table slot per (SM, scheduler).
return function(sm, sched) return sm * 16 + sched end
