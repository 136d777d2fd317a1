"""benchmarks/pdf_costs.py's arithmetic, which docs/performance.md's figures on the PDF pool's order
rest on (forty-ninth round): the workers' end for an order, and the rank agreement."""

from benchmarks.pdf_costs import kendall, line_error, pool_end


def test_the_pools_end_is_the_last_worker_s_each_taking_the_next_pdf_when_free():
    costs = [1.0, 1.0, 2.0]
    assert pool_end(costs, [0, 1, 2]) == 3.0  # the largest last: one worker takes it alone at 1
    assert pool_end(costs, [2, 0, 1]) == 2.0  # the largest first: the other takes both small ones
    assert pool_end(costs, [2, 0, 1], workers=1) == 4.0


def test_kendall_is_one_for_the_same_order_and_minus_one_for_the_reverse():
    assert kendall([1.0, 2.0, 3.0], [10.0, 20.0, 35.0]) == 1.0
    assert kendall([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]) == -1.0


def test_a_line_through_every_point_is_off_by_nothing():
    assert line_error([1.0, 2.0, 3.0], [2.0, 4.0, 6.0]) < 1e-9
